package callpath_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/bulkhead"
	"github.com/resilint/resilint/runtime/callpath"
	"github.com/resilint/resilint/runtime/retry"
)

// TestAllocs: without timeouts, a call that succeeds at once allocates
// nothing through every part but the retry, whose attempt gets a context of
// its own (one allocation, never reused).
func TestAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("the race detector and coverage counters allocate")
	}
	ctx := context.Background()
	full := newPath(t, callpath.Config{
		Breaker:  newBreaker(t, breaker.Config{}),
		Retry:    &retry.Policy{MaxAttempts: 3, Idempotent: true},
		Bulkhead: newBulkhead(t, bulkhead.Config{MaxConcurrent: 10, MaxWait: time.Second}),
	})
	for name, p := range map[string]*callpath.Path{"nil": nil, "full": full} {
		want := 1.0
		if p == nil {
			want = 0
		}
		assert.Equal(t, want, testing.AllocsPerRun(1000, func() {
			_, _ = callpath.Execute(ctx, p, func(context.Context) (int, error) { return 1, nil })
		}), "Execute, %s", name)
		assert.Equal(t, want, testing.AllocsPerRun(1000, func() {
			_ = p.Do(ctx, func(context.Context) error { return nil })
		}), "Do, %s", name)
		assert.Equal(t, want, testing.AllocsPerRun(1000, func() {
			_, _ = callpath.ExecuteWithFallback(ctx, p, func(context.Context) (int, error) { return 1, nil },
				func(_ context.Context, err error) (int, error) { return 0, err })
		}), "ExecuteWithFallback, %s", name)
	}
	open := newPath(t, callpath.Config{Breaker: openBreaker(t, newClock(), breaker.Config{}), Retry: &retry.Policy{}})
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		_ = open.Do(ctx, func(context.Context) error { return nil })
	}), "rejected by an open circuit")
}

// TestStress sends many concurrent requests with mixed outcomes down one
// Path, for the race detector, and checks the bulkhead bound and that every
// slot comes back.
func TestStress(t *testing.T) {
	br := newBreaker(t, breaker.Config{WindowSize: 50, MinimumCalls: 10, OpenWait: time.Millisecond, HalfOpenTrials: 4, Classify: callpath.BreakerClassify})
	bh := newBulkhead(t, bulkhead.Config{MaxConcurrent: 4, MaxWait: time.Millisecond})
	p := newPath(t, callpath.Config{
		Timeout:        time.Second,
		Breaker:        br,
		Retry:          &retry.Policy{MaxAttempts: 3, BaseDelay: 10 * time.Microsecond, MaxDelay: 100 * time.Microsecond, Idempotent: true},
		Bulkhead:       bh,
		AttemptTimeout: 100 * time.Millisecond,
	})
	var inFlight, peak, calls atomic.Int64
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := range 200 {
				_, err := callpath.ExecuteWithFallback(t.Context(), p, func(ctx context.Context) (int, error) {
					n := inFlight.Add(1)
					defer inFlight.Add(-1)
					for {
						old := peak.Load()
						if n <= old || peak.CompareAndSwap(old, n) {
							break
						}
					}
					calls.Add(1)
					if (g+i)%3 == 0 {
						return 0, errDown
					}
					return i, nil
				}, func(_ context.Context, err error) (int, error) {
					if errors.Is(err, breaker.ErrOpen) || errors.Is(err, bulkhead.ErrFull) || errors.Is(err, errDown) {
						return -1, nil
					}
					return 0, err
				})
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, peak.Load(), int64(4), "never more attempts in flight than bulkhead slots")
	assert.Positive(t, calls.Load())
	assert.Zero(t, bh.InUse())
	assert.Zero(t, bh.Waiting())
}
