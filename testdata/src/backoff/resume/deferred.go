package resume

import (
	"context"
	"time"
)

// Loops that decide their wait on the way round and wait at the top of
// the next pass, before the next operation: the wait stands between a
// failure (or a success) and the call after it all the same.
type tailer struct {
	done  chan struct{}
	fetch func(ctx context.Context, from int64) (*pulled, error)
	out   chan string
	every time.Duration
}

// follow sets a fixed pause on a failed fetch and sleeps it at the top of
// the next pass; after a fetch it goes straight on. A resume loop whose
// failure wait has no random part: reported.
func (t *tailer) follow(ctx context.Context, from int64) {
	var pause time.Duration
	for !closed(t.done) {
		if pause > 0 {
			time.Sleep(pause) // want `retry delay has no jitter`
		}
		pause = 0
		got, err := t.fetch(ctx, from)
		if err != nil {
			pause = 3 * time.Second
			continue
		}
		for _, m := range got.msgs {
			t.out <- m
		}
		from = got.next
	}
}

// renew waits its interval at the top of the pass after a success (the
// timer reset to it), and after a failure sleeps a pause on the spot and
// starts the next pass at once. The success waits too before the next
// call: a poll, whose waits are no retry delays. Not reported.
func (t *tailer) renew(ctx context.Context, from int64) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	var wait time.Duration
	for {
		if wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-timer.C:
			}
		}
		got, err := t.fetch(ctx, from)
		if err != nil {
			time.Sleep(time.Second)
			wait = 0
			continue
		}
		from = got.next
		wait = t.every
	}
}

// noPause is how long the next pass waits after a failure that paused on
// the spot.
const noPause time.Duration = 0

// renewNamed is renew with the zero named: not reported.
func (t *tailer) renewNamed(ctx context.Context, from int64) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	var wait time.Duration
	for {
		if wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-timer.C:
			}
		}
		got, err := t.fetch(ctx, from)
		if err != nil {
			time.Sleep(time.Second)
			wait = noPause
			continue
		}
		from = got.next
		wait = t.every
	}
}
