// Package retry is go-retry analyzed by itself: a reduction written for
// this test. Constant, Exponential and Do are catalogued retries; their
// callers are judged where they call them, with the policy they chose,
// so their bodies are not reported. A retry the catalog does not
// describe is judged like any other.
package retry

import (
	"context"
	"errors"
	"time"
)

type Backoff interface {
	Next() (next time.Duration, stop bool)
}

type BackoffFunc func() (time.Duration, bool)

func (b BackoffFunc) Next() (time.Duration, bool) { return b() }

type RetryFunc func(ctx context.Context) error

type retryableError struct{ err error }

func (e *retryableError) Error() string { return e.err.Error() }

func RetryableError(err error) error { return &retryableError{err} }

type RetryFuncValue[T any] func(ctx context.Context) (T, error)

// DoValue runs f until it succeeds, fails for good or the policy stops.
func DoValue[T any](ctx context.Context, b Backoff, f RetryFuncValue[T]) (T, error) {
	var zero T
	for {
		v, err := f(ctx)
		if err == nil {
			return v, nil
		}
		var rerr *retryableError
		if !errors.As(err, &rerr) {
			return zero, err
		}
		next, stop := b.Next()
		if stop {
			return zero, rerr.err
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
			return zero, ctx.Err()
		case <-t.C:
		}
	}
}

// Do is DoValue without a value.
func Do(ctx context.Context, b Backoff, f RetryFunc) error {
	_, err := DoValue(ctx, b, func(ctx context.Context) (*struct{}, error) {
		return nil, f(ctx)
	})
	return err
}

// Constant retries f with a constant delay: the policy its caller chose.
func Constant(ctx context.Context, t time.Duration, f RetryFunc) error {
	return Do(ctx, NewConstant(t), f)
}

// Exponential retries f with doubling delays.
func Exponential(ctx context.Context, base time.Duration, f RetryFunc) error {
	return Do(ctx, NewExponential(base), f)
}

func NewConstant(t time.Duration) Backoff {
	return BackoffFunc(func() (time.Duration, bool) { return t, false })
}

func NewExponential(base time.Duration) Backoff {
	n := 0
	return BackoffFunc(func() (time.Duration, bool) {
		n++
		return base << n, false
	})
}

// probe is not catalogued: its fixed-delay retry is the library's own
// code, judged like a user's.
func probe(ctx context.Context, f RetryFunc) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = f(ctx); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return err
}

var _ = probe
