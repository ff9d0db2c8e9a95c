// Package waithelpers is a code base's own wait and jitter helpers, in a
// package of their own: callers know what they do through facts, not
// through their names.
package waithelpers

import (
	"context"
	"math/rand/v2"
	"time"
)

// Pause waits d or until ctx ends; its name says nothing about sleeping.
func Pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Spread returns a random duration below d; its name says nothing about
// jitter.
func Spread(d time.Duration) time.Duration {
	return time.Duration(rand.Int64N(int64(d)))
}

// SleepHint only computes a hint: despite its name it does not wait.
func SleepHint(attempt int) time.Duration {
	return time.Duration(attempt) * time.Second
}

// JitterFree despite its name draws nothing at random.
func JitterFree(d time.Duration) time.Duration {
	return 2 * d
}

// Fetch retries by itself and waits after each failed attempt of its
// own: a helper whose attempts are spaced.
func Fetch(ctx context.Context, op func(context.Context) error) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
		if perr := Pause(ctx, Spread(time.Second)); perr != nil {
			return perr
		}
	}
	return err
}

// Doze waits d plus a random part of it, or until ctx ends: its callers'
// fixed durations are spread here.
func Doze(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d + time.Duration(rand.Int64N(int64(d))))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Step waits a delay it computes from the attempt number it is given, or
// until ctx ends: 100ms, 200ms, 300ms... the same for every caller.
func Step(ctx context.Context, attempt int) error {
	t := time.NewTimer(time.Duration(attempt+1) * 100 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// StepSpread waits a random part of its step: jittered.
func StepSpread(ctx context.Context, attempt int) error {
	return Pause(ctx, Spread(time.Duration(attempt+1)*100*time.Millisecond))
}
