package retrybench

import (
	"context"
	"errors"
	"testing"
	"time"

	avast "github.com/avast/retry-go/v4"
	backoffv4 "github.com/cenkalti/backoff/v4"
	backoffv5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/resilint/resilint/runtime/retry"
	sethvargo "github.com/sethvargo/go-retry"
)

const (
	attempts = 3
	base     = 100 * time.Millisecond
	maxDelay = 10 * time.Second
	tiny     = time.Nanosecond
)

var (
	errFail = errors.New("fail")
	calls   int   // calls of the operation since the last reset
	sink    error // keeps results alive
)

// The operations, alike for every library but for its signature: no
// captured variables, so no library pays for a closure allocation.
func succeed() error { calls++; return nil }

func failTwice() error {
	if calls++; calls < 3 {
		return errFail
	}
	return nil
}

// A lib sets up what may be shared and returns functions that each make one
// complete retried call, building per call what the library needs per call.
type lib struct {
	name      string
	success   func(ctx context.Context) func() error
	failTwice func(ctx context.Context) func() error
}

var libs = []lib{
	{
		name: "resilint",
		success: func(ctx context.Context) func() error {
			p := &retry.Policy{MaxAttempts: attempts, BaseDelay: base, MaxDelay: maxDelay}
			op := func(context.Context) error { return succeed() }
			return func() error { return retry.Do(ctx, p, op) }
		},
		failTwice: func(ctx context.Context) func() error {
			p := &retry.Policy{MaxAttempts: attempts, BaseDelay: tiny, MaxDelay: tiny, Jitter: retry.JitterNone}
			op := func(context.Context) error { return failTwice() }
			return func() error { return retry.Do(ctx, p, op) }
		},
	},
	{
		name: "cenkalti-v4",
		success: func(ctx context.Context) func() error {
			return func() error {
				eb := backoffv4.NewExponentialBackOff(backoffv4.WithInitialInterval(base), backoffv4.WithMaxInterval(maxDelay))
				return backoffv4.Retry(succeed, backoffv4.WithContext(backoffv4.WithMaxRetries(eb, attempts-1), ctx))
			}
		},
		failTwice: func(ctx context.Context) func() error {
			return func() error {
				bo := backoffv4.NewConstantBackOff(tiny)
				return backoffv4.Retry(failTwice, backoffv4.WithContext(backoffv4.WithMaxRetries(bo, attempts-1), ctx))
			}
		},
	},
	{
		name: "cenkalti-v5",
		success: func(ctx context.Context) func() error {
			op := func() (struct{}, error) { return struct{}{}, succeed() }
			return func() error {
				eb := backoffv5.NewExponentialBackOff()
				eb.InitialInterval, eb.MaxInterval = base, maxDelay
				_, err := backoffv5.Retry(ctx, op, backoffv5.WithBackOff(eb), backoffv5.WithMaxTries(attempts))
				return err
			}
		},
		failTwice: func(ctx context.Context) func() error {
			op := func() (struct{}, error) { return struct{}{}, failTwice() }
			return func() error {
				_, err := backoffv5.Retry(ctx, op, backoffv5.WithBackOff(backoffv5.NewConstantBackOff(tiny)), backoffv5.WithMaxTries(attempts))
				return err
			}
		},
	},
	{
		name: "avast-retry-go-v4",
		success: func(ctx context.Context) func() error {
			opts := []avast.Option{avast.Context(ctx), avast.Attempts(attempts), avast.Delay(base), avast.MaxDelay(maxDelay), avast.DelayType(avast.FullJitterBackoffDelay)}
			return func() error { return avast.Do(succeed, opts...) }
		},
		failTwice: func(ctx context.Context) func() error {
			opts := []avast.Option{avast.Context(ctx), avast.Attempts(attempts), avast.Delay(tiny), avast.DelayType(avast.FixedDelay)}
			return func() error { return avast.Do(failTwice, opts...) }
		},
	},
	{
		name: "sethvargo-go-retry",
		success: func(ctx context.Context) func() error {
			op := func(context.Context) error { return succeed() }
			return func() error {
				bo := sethvargo.WithMaxRetries(attempts-1, sethvargo.WithCappedDuration(maxDelay, sethvargo.WithFullJitter(sethvargo.NewExponential(base))))
				return sethvargo.Do(ctx, bo, op)
			}
		},
		failTwice: func(ctx context.Context) func() error {
			// go-retry retries only errors marked retryable.
			op := func(context.Context) error { return sethvargo.RetryableError(failTwice()) }
			return func() error {
				return sethvargo.Do(ctx, sethvargo.WithMaxRetries(attempts-1, sethvargo.NewConstant(tiny)), op)
			}
		},
	},
	{
		name: "failsafe-go",
		success: func(ctx context.Context) func() error {
			rp := retrypolicy.NewBuilder[any]().WithMaxAttempts(attempts).WithBackoff(base, maxDelay).WithJitterFactor(0.5).Build()
			ex := failsafe.With[any](rp)
			return func() error { return ex.WithContext(ctx).Run(succeed) }
		},
		failTwice: func(ctx context.Context) func() error {
			rp := retrypolicy.NewBuilder[any]().WithMaxAttempts(attempts).WithDelay(tiny).Build()
			ex := failsafe.With[any](rp)
			return func() error { return ex.WithContext(ctx).Run(failTwice) }
		},
	},
}

// BenchmarkSuccess: the first attempt succeeds; up to 3 attempts of
// exponential backoff from 100ms capped at 10s, with jitter.
func BenchmarkSuccess(b *testing.B) {
	for _, l := range libs {
		b.Run("lib="+l.name, func(b *testing.B) {
			call := l.success(context.Background())
			b.ReportAllocs()
			for b.Loop() {
				calls = 0
				sink = call()
			}
		})
	}
}

// BenchmarkFailTwice: two failures, then success on the third attempt; a
// constant 1ns delay.
func BenchmarkFailTwice(b *testing.B) {
	for _, l := range libs {
		b.Run("lib="+l.name, func(b *testing.B) {
			call := l.failTwice(context.Background())
			b.ReportAllocs()
			for b.Loop() {
				calls = 0
				sink = call()
			}
		})
	}
}

// TestSameBehaviour checks that every library's configuration does what the
// benchmarks claim: one call on success, three when failing twice.
func TestSameBehaviour(t *testing.T) {
	for _, l := range libs {
		t.Run(l.name, func(t *testing.T) {
			calls = 0
			if err := l.success(t.Context())(); err != nil || calls != 1 {
				t.Errorf("success: err %v after %d calls, want nil after 1", err, calls)
			}
			calls = 0
			if err := l.failTwice(t.Context())(); err != nil || calls != 3 {
				t.Errorf("fail twice: err %v after %d calls, want nil after 3", err, calls)
			}
		})
	}
}
