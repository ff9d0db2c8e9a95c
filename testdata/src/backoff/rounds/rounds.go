package rounds

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var errFatal = errors.New("fatal")

// withRetry runs fn up to n+1 times, waiting a capped, fully jittered
// backoff between its attempts.
func withRetry(ctx context.Context, n int, fn func(context.Context) error) error {
	var err error
	for i := 0; i <= n; i++ {
		if i > 0 {
			d := time.Duration(rand.Int64N(int64(min(time.Second<<i, 30*time.Second))))
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d):
			}
		}
		if err = fn(ctx); err == nil || errors.Is(err, errFatal) {
			return err
		}
	}
	return err
}

// withoutWaits runs fn up to three times, one attempt right after the
// other.
func withoutWaits(ctx context.Context, fn func(context.Context) error) error {
	var err error
	for range 3 { // want `retry loop tries again at once after a failure`
		if err = fn(ctx); err == nil {
			return nil
		}
	}
	return err
}

func refresh(ctx context.Context) error { return ctx.Err() }

func dial(ctx context.Context) error { return ctx.Err() }

// keepFresh calls the helper again after it gave up: each round starts
// with one attempt at once, the others wait the helper's backoff. No
// retry storm; not reported.
func keepFresh(ctx context.Context) error {
	for {
		err := withRetry(ctx, 3, refresh)
		if err == nil || errors.Is(err, errFatal) || ctx.Err() != nil {
			return err
		}
	}
}

// redial dials again at once when the dial fails, before it ever reaches
// the helper: every failed dial is followed by another at once.
// Reported.
func redial(ctx context.Context) error {
	for { // want `retry loop tries again at once after a failure`
		if err := dial(ctx); err != nil {
			if ctx.Err() != nil {
				return err
			}
			continue
		}
		err := withRetry(ctx, 3, refresh)
		if err == nil || ctx.Err() != nil {
			return err
		}
	}
}

// again calls a helper whose own attempts are not spaced: its rounds are
// attempts at once too. Reported.
func again(ctx context.Context) error {
	for { // want `retry loop tries again at once after a failure`
		err := withoutWaits(ctx, refresh)
		if err == nil || ctx.Err() != nil {
			return err
		}
	}
}
