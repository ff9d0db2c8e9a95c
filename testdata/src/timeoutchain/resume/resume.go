// Package resume holds watches and consumers that go on after every
// success and wait after a failure before calling again: that wait is a
// retry's, and must end when the caller's context does.
package resume

import (
	"context"
	"math/rand/v2"
	"time"
)

type event struct{ key string }

type store interface {
	Watch(ctx context.Context, from uint64) ([]event, uint64, error)
}

type watcher struct {
	st    store
	apply func([]event)
}

// run re-watches after an error, waiting longer after each failure in
// a row with time.Sleep: reported. The check at the top of the pass
// comes only after a wait of up to a minute.
func (w *watcher) run(ctx context.Context) error {
	var rev uint64
	wait := time.Second
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		evs, next, err := w.st.Watch(ctx, rev)
		if err != nil {
			time.Sleep(wait) // want `the retry loop waits without watching ctx`
			wait = min(2*wait, time.Minute)
			continue
		}
		wait = time.Second
		rev = next
		w.apply(evs)
	}
}

// runPaced re-watches after a fixed pause and checks the context at the
// top of each pass: after a cancellation the pause under way ends and
// no call follows. Not reported, as for a retry.
func (w *watcher) runPaced(ctx context.Context) error {
	var rev uint64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		evs, next, err := w.st.Watch(ctx, rev)
		if err != nil {
			time.Sleep(2 * time.Second)
			continue
		}
		rev = next
		w.apply(evs)
	}
}

// runJittered is runPaced with its pause drawn at random below the
// same bound: it never waits longer. Not reported either.
func (w *watcher) runJittered(ctx context.Context) error {
	var rev uint64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		evs, next, err := w.st.Watch(ctx, rev)
		if err != nil {
			time.Sleep(time.Duration(rand.Int64N(int64(2 * time.Second))))
			continue
		}
		rev = next
		w.apply(evs)
	}
}

// runDrawn waits a pause drawn with rand.N: never longer than its
// bound. Not reported.
func (w *watcher) runDrawn(ctx context.Context) error {
	var rev uint64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		evs, next, err := w.st.Watch(ctx, rev)
		if err != nil {
			time.Sleep(rand.N(2 * time.Second))
			continue
		}
		rev = next
		w.apply(evs)
	}
}

// runSelect waits in a select that watches the context: not reported.
func (w *watcher) runSelect(ctx context.Context) error {
	var rev uint64
	for {
		evs, next, err := w.st.Watch(ctx, rev)
		if err != nil {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(2 * time.Second):
			}
			continue
		}
		rev = next
		w.apply(evs)
	}
}

// poll asks once a second whatever the answer: the pause is the poll's
// pace, not a wait after a failure, and is not reported here.
func (w *watcher) poll(ctx context.Context) error {
	var rev uint64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		evs, next, err := w.st.Watch(ctx, rev)
		if err == nil {
			rev = next
			w.apply(evs)
		}
		time.Sleep(time.Second)
	}
}

// runAlone has no context to watch: not reported.
func (w *watcher) runAlone(stop <-chan struct{}) {
	var rev uint64
	for {
		select {
		case <-stop:
			return
		default:
		}
		evs, next, err := w.st.Watch(context.Background(), rev)
		if err != nil {
			time.Sleep(2 * time.Second)
			continue
		}
		rev = next
		w.apply(evs)
	}
}
