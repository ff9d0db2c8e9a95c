package callpath_test

import (
	"context"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/bulkhead"
	"github.com/resilint/resilint/runtime/callpath"
	"github.com/resilint/resilint/runtime/retry"
)

// The composed path against the same parts called by hand in the same
// order: what the Path itself costs.

func succeed(context.Context) (int, error) { return 1, nil }

// byHand is the path written out: breaker, retry, bulkhead, attempt timeout.
func byHand(ctx context.Context, timeout, attemptTimeout time.Duration, br *breaker.Breaker, pol *retry.Policy, bh *bulkhead.Bulkhead,
	op func(context.Context) (int, error)) (int, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return breaker.Execute(ctx, br, func(ctx context.Context) (int, error) {
		return retry.DoValue(ctx, pol, func(ctx context.Context) (int, error) {
			if err := bh.Acquire(ctx); err != nil {
				return 0, err
			}
			defer bh.Release()
			if attemptTimeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, attemptTimeout)
				defer cancel()
			}
			return op(ctx)
		})
	})
}

// BenchmarkPath runs the same successful call through a Path and through the
// same parts by hand; compare with benchstat -col /impl.
func BenchmarkPath(b *testing.B) {
	for _, timeouts := range []bool{false, true} {
		var timeout, attemptTimeout time.Duration
		name := "timeouts=none"
		if timeouts {
			timeout, attemptTimeout, name = time.Minute, 10*time.Second, "timeouts=both"
		}
		br := newBreaker(b, breaker.Config{})
		pol := &retry.Policy{MaxAttempts: 3, Idempotent: true}
		bh := newBulkhead(b, bulkhead.Config{MaxConcurrent: 1 << 20})
		p := newPath(b, callpath.Config{Timeout: timeout, Breaker: br, Retry: pol, Bulkhead: bh, AttemptTimeout: attemptTimeout})
		ctx := context.Background()
		impls := []struct {
			name string
			call func() (int, error)
		}{
			{"composed", func() (int, error) { return callpath.Execute(ctx, p, succeed) }},
			{"by-hand", func() (int, error) { return byHand(ctx, timeout, attemptTimeout, br, pol, bh, succeed) }},
		}
		for _, impl := range impls {
			b.Run(name+"/mode=serial/impl="+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_, _ = impl.call()
				}
			})
			b.Run(name+"/mode=parallel/impl="+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						_, _ = impl.call()
					}
				})
			})
		}
	}
}

// BenchmarkOpen is a request rejected by an open circuit.
func BenchmarkOpen(b *testing.B) {
	br := openBreaker(b, newClock(), breaker.Config{})
	p := newPath(b, callpath.Config{Breaker: br, Retry: &retry.Policy{}, Bulkhead: newBulkhead(b, bulkhead.Config{})})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = callpath.Execute(ctx, p, succeed)
	}
}
