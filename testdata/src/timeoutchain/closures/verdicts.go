package closures

import (
	"context"
	"errors"
	"time"
)

var errGone = errors.New("gone")

type watchList struct {
	open  func(ctx context.Context) error
	delay func() time.Duration
}

// sync asks a closure given the error whether to go round; the closure
// sleeps before it says yes, and watches no context. Reported at its
// call: the caller's cancellation waits out the sleep.
func (w *watchList) sync(ctx context.Context) error {
	again := func(err error) bool {
		if errors.Is(err, errGone) {
			return false
		}
		time.Sleep(w.delay())
		return true
	}
	for i := 0; i < 10; i++ {
		err := w.open(ctx)
		if err == nil {
			return nil
		}
		if again(err) { // want `the retry loop waits without watching ctx`
			continue
		}
		return err
	}
	return errGone
}

// syncWatched is the same, the closure's wait in a select on the
// context: not reported.
func (w *watchList) syncWatched(ctx context.Context) error {
	again := func(err error) bool {
		if errors.Is(err, errGone) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(w.delay()):
		}
		return true
	}
	for i := 0; i < 10; i++ {
		err := w.open(ctx)
		if err == nil {
			return nil
		}
		if again(err) {
			continue
		}
		return err
	}
	return errGone
}
