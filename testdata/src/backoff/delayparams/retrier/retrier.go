// Package retrier retries with a delay its callers give: what the delay
// is, fixed or random, is known at their calls, in other packages.
package retrier

import (
	"context"
	"errors"
	"time"
)

// Do calls f up to attempts times, waiting sleep between attempts.
func Do(attempts int, sleep time.Duration, f func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(sleep)
	}
	return err
}

// Default passes its delay on to Do, unchanged: the fact moves up.
func Default(f func() error, sleep time.Duration) error {
	return Do(3, sleep, f)
}

var errPending = errors.New("previous write still being finished")

// Pending goes round only on a failure of the request's own state: its
// delay is not asked for jitter, here or at its calls.
func Pending(ctx context.Context, wait time.Duration, f func() error) error {
	for {
		err := f()
		if !errors.Is(err, errPending) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// Try is Do with the pause after the attempt count check.
func Try(n int, pause time.Duration, f func() error) error {
	err := f()
	for i := 1; i < n && err != nil; i++ {
		time.Sleep(pause)
		err = f()
	}
	return err
}

// Grow waits the delay it is given doubled at each attempt: a constant
// given at the call is still a delay with no random part.
func Grow(attempts int, base time.Duration, f func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(base << uint(i))
	}
	return err
}

// GrowInPlace doubles the delay it is given after each failed attempt,
// up to the cap it is given: the same as Grow, written in place.
func GrowInPlace(ctx context.Context, pause, max time.Duration, f func() error) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = f(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		if pause *= 2; pause > max {
			pause = max
		}
	}
	return err
}

// Call is an operation run through a made retry.
type Call func(ctx context.Context) error

// Interceptor makes a retry that waits the fixed delay it was made with:
// the delay is known where Interceptor is called.
func Interceptor(attempts int, wait time.Duration) func(ctx context.Context, call Call) error {
	return func(ctx context.Context, call Call) error {
		var err error
		for i := 0; i < attempts; i++ {
			if err = call(ctx); err == nil {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
		}
		return err
	}
}

// pace waits what next answers, at most max: the duration it is given
// is only the cap.
func pace(ctx context.Context, n int, max time.Duration, next func(int) time.Duration) error {
	d := next(n)
	if d > max {
		d = max
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// Paced makes a retry that waits through pace: its delay is what next
// answers, not the cap it is given.
func Paced(attempts int, max time.Duration, next func(int) time.Duration) func(ctx context.Context, call Call) error {
	return func(ctx context.Context, call Call) error {
		var err error
		for i := 0; i < attempts; i++ {
			if err = call(ctx); err == nil {
				return nil
			}
			if err := pace(ctx, i, max, next); err != nil {
				return err
			}
		}
		return err
	}
}
