package loops

import (
	"context"
	"time"
)

// Counting from 1: the wait before attempt i is Backoff's attempt i-2.
func fromOne(ctx context.Context) (int, error) {
	var err error
	for attempt := 1; attempt <= 3; attempt++ { // want `retry loop tries again at once after a failure`
		if err = call(ctx); err == nil {
			return attempt, nil
		}
	}
	return 0, err
}

// Counting down: reported, no fix.
func countDown(ctx context.Context) error {
	var err error
	for left := 3; left > 0; left-- { // want `retry loop tries again at once after a failure`
		if err = call(ctx); err == nil {
			return nil
		}
	}
	return err
}

// No context in scope: reported, no fix.
func noContext() error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		if err = call(context.Background()); err == nil {
			return nil
		}
	}
	return err
}

// A bound the caller gives: whatever it is, every pass after the first
// follows a failure at once.
func givenBound(ctx context.Context, attempts int) error {
	var err error
	for i := 0; i < attempts; i++ { // want `retry loop tries again at once after a failure`
		if err = call(ctx); err == nil {
			return nil
		}
	}
	return err
}

type refresher struct {
	stopped  bool
	lastWait time.Duration
}

// pause waits d in steps, so that a stop is seen between them.
func (r *refresher) pause(d time.Duration) {
	const step = 20 * time.Millisecond
	for d > 0 && !r.stopped {
		s := min(step, d)
		time.Sleep(s)
		d -= s
	}
}

// note records d and waits nothing.
func (r *refresher) note(d time.Duration) { r.lastWait = d }

// The pause between attempts is taken in steps, inside a loop of the
// helper's own: it may wait, so the retry is not known to go round at
// once.
func (r *refresher) refresh(ctx context.Context) {
	for attempt := 0; !r.stopped; attempt++ {
		if err := call(ctx); err == nil {
			return
		}
		r.pause(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
}

// Near miss: the helper given the duration waits nothing.
func (r *refresher) refreshNoted(ctx context.Context) {
	for attempt := 0; !r.stopped; attempt++ { // want `retry loop tries again at once after a failure`
		if err := call(ctx); err == nil {
			return
		}
		r.note(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
}
