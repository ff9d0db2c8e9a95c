package caps

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

func call(ctx context.Context) error { return errors.New("down") }

func jittered(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

// The growth only runs while the delay is below the limit: capped.
func growsBelowLimit(ctx context.Context) error {
	d := 100 * time.Millisecond
	const limit = 5 * time.Second
	var err error
	for i := 0; i < 20; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		if d < limit && i%2 == 0 {
			d *= 2
		}
	}
	return err
}

// Three attempts: 100ms<<attempt never exceeds 400ms.
func smallAttemptBound(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Duration(100<<attempt) * time.Millisecond)):
		}
	}
	return err
}

// Twenty attempts of doubling: hours; the attempt bound is no cap.
func largeAttemptBound(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Duration(100<<attempt) * time.Millisecond)): // want `retry delay grows exponentially with no cap`
		}
	}
	return err
}

// Growth guarded by a test that is not a limit on the delay: no cap.
func growsUnguarded(ctx context.Context) error {
	d := 100 * time.Millisecond
	var err error
	for {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)): // want `retry delay grows exponentially with no cap`
		}
		if d > 0 {
			d *= 2
		}
	}
}
