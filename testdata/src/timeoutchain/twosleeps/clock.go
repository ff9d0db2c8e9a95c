package twosleeps

import (
	"context"
	"time"

	"k8s.io/utils/clock"
)

type leases struct{ clock clock.Clock }

// A growing sleep on an injected clock that watches nothing, then a
// timer of the same clock raced with ctx.Done() through its C method: one
// finding, at the sleep, and the timer is no related wait (it watches the
// context).
func (l *leases) ensure(ctx context.Context) error {
	var err error
	d := 100 * time.Millisecond
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		d = min(2*d, time.Minute)
		l.clock.Sleep(d) // want `the retry loop waits without watching ctx`
		t := l.clock.NewTimer(d)
		select {
		case <-t.C():
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	return err
}

// The near miss: the timer's channel received alone is a second wait
// that does not watch the context, related to the sleep's finding.
func (l *leases) ensureBlind(ctx context.Context) error {
	var err error
	d := 100 * time.Millisecond
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		d = min(2*d, time.Minute)
		l.clock.Sleep(d) // want `the retry loop waits without watching ctx`
		t := l.clock.NewTimer(d)
		<-t.C()
	}
	return err
}
