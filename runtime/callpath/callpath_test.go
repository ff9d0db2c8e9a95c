package callpath_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/bulkhead"
	"github.com/resilint/resilint/runtime/callpath"
	"github.com/resilint/resilint/runtime/retry"
)

// TestOrder checks, from inside the operation, that every layer is where it
// should be: the bulkhead slot is held, the attempt is the retry's, the
// context carries the attempt timeout inside the total one, and the breaker
// has recorded nothing yet.
func TestOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		br := newBreaker(t, breaker.Config{})
		bh := newBulkhead(t, bulkhead.Config{MaxConcurrent: 2})
		p := newPath(t, callpath.Config{
			Timeout:        time.Second,
			Breaker:        br,
			Retry:          fast(3),
			Bulkhead:       bh,
			AttemptTimeout: 100 * time.Millisecond,
		})
		start := time.Now()
		var seen []int
		v, err := callpath.Execute(t.Context(), p, func(ctx context.Context) (string, error) {
			a, ok := retry.AttemptFromContext(ctx)
			require.True(t, ok, "the operation runs inside the retry")
			seen = append(seen, a.Number)
			assert.Equal(t, 1, bh.InUse(), "the attempt holds a bulkhead slot")
			assert.Zero(t, br.Metrics().Calls, "the breaker records the request only when it is over")
			d, ok := ctx.Deadline()
			require.True(t, ok)
			assert.Equal(t, time.Now().Add(100*time.Millisecond), d, "the attempt timeout starts with the attempt")
			if a.Number < 3 {
				return "", errDown
			}
			return "ok", nil
		})
		require.NoError(t, err)
		assert.Equal(t, "ok", v)
		assert.Equal(t, []int{1, 2, 3}, seen)
		assert.Equal(t, 2*time.Millisecond, time.Since(start), "two retry delays of 1ms")
		assert.Zero(t, bh.InUse())
		m := br.Metrics()
		assert.Equal(t, int64(1), m.Calls, "one outcome for the request")
		assert.Zero(t, m.Failures, "the request succeeded")
	})
}

// TestOneOutcomePerRequest proves that the breaker records one outcome per
// logical request, whatever the number of attempts, and contrasts it with a
// retry placed outside the breaker.
func TestOneOutcomePerRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c counted
		br := newBreaker(t, breaker.Config{WindowSize: 100, MinimumCalls: 100, Classify: c.classify})
		p := newPath(t, callpath.Config{Breaker: br, Retry: fast(3)})
		op, calls := script(errDown)
		for range 10 {
			_, err := callpath.Execute(t.Context(), p, op)
			require.ErrorIs(t, err, retry.ErrAttemptsExhausted)
			require.ErrorIs(t, err, errDown)
		}
		assert.Equal(t, int64(30), calls.Load(), "3 attempts per request")
		assert.Equal(t, int64(10), c.n.Load(), "the breaker classified one outcome per request")
		m := br.Metrics()
		assert.Equal(t, int64(10), m.Calls)
		assert.Equal(t, int64(10), m.Failures)

		// A request that succeeds on a retry is one success.
		op, calls = script(errDown, nil)
		_, err := callpath.Execute(t.Context(), p, op)
		require.NoError(t, err)
		assert.Equal(t, int64(2), calls.Load())
		m = br.Metrics()
		assert.Equal(t, int64(11), m.Calls)
		assert.Equal(t, int64(10), m.Failures)
		assert.Equal(t, int64(10), c.n.Load(), "a success needs no classification")

		// The other order, by hand: one outcome per attempt.
		var c2 counted
		br2 := newBreaker(t, breaker.Config{WindowSize: 100, MinimumCalls: 100, Classify: c2.classify})
		op, _ = script(errDown)
		for range 10 {
			_, _ = retry.DoValue(t.Context(), fast(3), func(ctx context.Context) (int, error) {
				return breaker.Execute(ctx, br2, op)
			})
		}
		assert.Equal(t, int64(30), br2.Metrics().Calls, "retry outside the breaker: every attempt counts")
	})
}

// TestOpenBreakerStopsEverything: an open circuit rejects the request before
// the retry, the bulkhead or the operation are reached.
func TestOpenBreakerStopsEverything(t *testing.T) {
	clock := newClock()
	br := openBreaker(t, clock, breaker.Config{OpenWait: time.Minute})
	budget, err := retry.NewBudget(retry.BudgetConfig{})
	require.NoError(t, err)
	var retries atomic.Int64
	pol := fast(5)
	pol.Budget = budget
	pol.OnRetry = func(context.Context, retry.RetryEvent) { retries.Add(1) }
	bh := newBulkhead(t, bulkhead.Config{MaxConcurrent: 1})
	p := newPath(t, callpath.Config{Breaker: br, Retry: pol, Bulkhead: bh, AttemptTimeout: time.Second})

	op, calls := script(nil)
	rejected := br.Metrics().Rejected
	for range 100 {
		_, err := callpath.Execute(t.Context(), p, op)
		require.ErrorIs(t, err, breaker.ErrOpen)
		assert.True(t, retry.IsCircuitOpen(err))
	}
	assert.Zero(t, calls.Load(), "no attempt reaches the operation")
	assert.Zero(t, retries.Load(), "no retry")
	assert.Zero(t, budget.Balance(), "the retry was not even entered: nothing deposited in its budget")
	assert.Zero(t, bh.InUse())
	assert.Zero(t, bh.Rejected())
	assert.Equal(t, rejected+100, br.Metrics().Rejected)
}

// TestHalfOpenRejectionNotRetried: while all half-open trials are taken, a
// request fails at once with ErrTooManyTrials, and is not retried.
func TestHalfOpenRejectionNotRetried(t *testing.T) {
	clock := newClock()
	br := openBreaker(t, clock, breaker.Config{OpenWait: time.Second, HalfOpenTrials: 1})
	clock.Advance(2 * time.Second)
	var retries atomic.Int64
	pol := fast(5)
	pol.OnRetry = func(context.Context, retry.RetryEvent) { retries.Add(1) }
	p := newPath(t, callpath.Config{Breaker: br, Retry: pol})

	started, release := make(chan struct{}), make(chan struct{})
	trial := make(chan error)
	go func() {
		_, err := callpath.Execute(t.Context(), p, func(context.Context) (int, error) {
			close(started)
			<-release
			return 1, nil
		})
		trial <- err
	}()
	<-started
	require.Equal(t, breaker.StateHalfOpen, br.State())

	op, calls := script(nil)
	_, err := callpath.Execute(t.Context(), p, op)
	require.ErrorIs(t, err, breaker.ErrTooManyTrials)
	assert.ErrorIs(t, err, breaker.ErrOpen)
	assert.Zero(t, calls.Load())
	assert.Zero(t, retries.Load())

	close(release)
	require.NoError(t, <-trial)
	assert.Equal(t, breaker.StateClosed, br.State(), "the single trial succeeded")
}

// TestRetryStopsOnRejectionFromInside: an operation that itself goes through
// a breaker (a client with its own) and is rejected is not retried either.
func TestRetryStopsOnRejectionFromInside(t *testing.T) {
	for _, rejection := range []error{breaker.ErrOpen, breaker.ErrTooManyTrials} {
		p := newPath(t, callpath.Config{Retry: fast(5)})
		op, calls := script(rejection)
		_, err := callpath.Execute(t.Context(), p, op)
		assert.ErrorIs(t, err, rejection)
		assert.Equal(t, int64(1), calls.Load(), "%v", rejection)
	}
}

// TestNoSlotHeldWhileRetrySleeps observes the bulkhead during the retry's
// delay: no slot is in use, and another request can take the only one.
func TestNoSlotHeldWhileRetrySleeps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bh := newBulkhead(t, bulkhead.Config{MaxConcurrent: 1})
		pol := &retry.Policy{MaxAttempts: 2, BaseDelay: time.Second, MaxDelay: time.Second, Jitter: retry.JitterNone}
		p := newPath(t, callpath.Config{Breaker: newBreaker(t, breaker.Config{}), Retry: pol, Bulkhead: bh})

		var attempts atomic.Int64
		done := make(chan error)
		start := time.Now()
		go func() {
			_, err := callpath.Execute(t.Context(), p, func(context.Context) (int, error) {
				assert.Equal(t, 1, bh.InUse(), "an attempt holds the slot")
				if attempts.Add(1) == 1 {
					return 0, errDown
				}
				return 2, nil
			})
			done <- err
		}()
		synctest.Wait() // the request is asleep in the retry's delay
		require.Equal(t, int64(1), attempts.Load())
		assert.Zero(t, bh.InUse(), "no slot is held while the retry sleeps")
		require.True(t, bh.TryAcquire(), "another request gets the only slot meanwhile")
		bh.Release()

		require.NoError(t, <-done)
		assert.Equal(t, time.Second, time.Since(start))
		assert.Equal(t, int64(2), attempts.Load())
		assert.Zero(t, bh.InUse())
		assert.Zero(t, bh.Rejected())
	})
}

// TestBulkheadOutsideRetryHoldsSlot shows what the Path prevents: with the
// bulkhead wrapped around the retry by hand, the slot stays taken for the
// whole delay.
func TestBulkheadOutsideRetryHoldsSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bh := newBulkhead(t, bulkhead.Config{MaxConcurrent: 1})
		//resilint:ignore backoff the test needs exact, deterministic delays
		pol := &retry.Policy{MaxAttempts: 2, BaseDelay: time.Second, MaxDelay: time.Second, Jitter: retry.JitterNone}
		done := make(chan error)
		go func() {
			done <- bh.Do(t.Context(), func(ctx context.Context) error {
				return retry.Do(ctx, pol, func(context.Context) error { return errDown })
			})
		}()
		synctest.Wait()
		assert.Equal(t, 1, bh.InUse(), "the slot is held through the delay")
		assert.False(t, bh.TryAcquire())
		<-done
	})
}

// TestAttemptTimeoutPerAttempt: each attempt gets its own AttemptTimeout,
// counted from when it has its slot.
func TestAttemptTimeoutPerAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bh := newBulkhead(t, bulkhead.Config{MaxConcurrent: 1, MaxWait: time.Second})
		p := newPath(t, callpath.Config{
			Timeout:        time.Second,
			Retry:          &retry.Policy{MaxAttempts: 3, BaseDelay: 10 * time.Millisecond, MaxDelay: 10 * time.Millisecond, Jitter: retry.JitterNone, Idempotent: true},
			Bulkhead:       bh,
			AttemptTimeout: 100 * time.Millisecond,
		})
		// Another request holds the only slot for the first 50ms.
		require.True(t, bh.TryAcquire())
		time.AfterFunc(50*time.Millisecond, bh.Release)

		start := time.Now()
		var starts []time.Duration
		_, err := callpath.Execute(t.Context(), p, func(ctx context.Context) (int, error) {
			now := time.Now()
			starts = append(starts, now.Sub(start))
			d, _ := ctx.Deadline()
			assert.Equal(t, 100*time.Millisecond, d.Sub(now))
			<-ctx.Done()
			assert.Equal(t, callpath.ErrAttemptTimeout, context.Cause(ctx))
			return 0, ctx.Err()
		})
		assert.Equal(t, []time.Duration{50 * time.Millisecond, 160 * time.Millisecond, 270 * time.Millisecond}, starts,
			"the wait for the slot is not part of the attempt's time")
		require.ErrorIs(t, err, callpath.ErrAttemptTimeout)
		assert.ErrorIs(t, err, retry.ErrAttemptsExhausted)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.NotErrorIs(t, err, callpath.ErrTimeout)
		var te *callpath.TimeoutError
		require.ErrorAs(t, err, &te)
		assert.True(t, te.Attempt)
		assert.Equal(t, 100*time.Millisecond, te.After)
		assert.Equal(t, "retry: attempts exhausted (3 attempts): callpath: attempt timeout after 100ms: context deadline exceeded", err.Error())
	})
}

// TestAttemptTimeoutNotRetriedUnlessIdempotent: an attempt cut short is a
// timeout for the retry's classifier, whatever the operation returned.
func TestAttemptTimeoutNotRetriedUnlessIdempotent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPath(t, callpath.Config{
			Retry:          &retry.Policy{MaxAttempts: 3}, // not idempotent
			AttemptTimeout: 100 * time.Millisecond,
		})
		var calls int
		_, err := callpath.Execute(t.Context(), p, func(ctx context.Context) (int, error) {
			calls++
			<-ctx.Done()
			return 0, errors.New("gave up") // not a context error
		})
		assert.Equal(t, 1, calls, "the request may have been carried out")
		assert.ErrorIs(t, err, callpath.ErrAttemptTimeout)
		var timeout interface{ Timeout() bool }
		require.ErrorAs(t, err, &timeout)
		assert.True(t, timeout.Timeout())
	})
}

// TestTotalTimeout: Timeout bounds the whole request, retries and delays
// included, and says so in the error.
func TestTotalTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c counted
		br := newBreaker(t, breaker.Config{Classify: c.classify})
		p := newPath(t, callpath.Config{
			Timeout: time.Second,
			Breaker: br,
			Retry:   &retry.Policy{MaxAttempts: 100, BaseDelay: 100 * time.Millisecond, MaxDelay: 100 * time.Millisecond, Jitter: retry.JitterNone, Idempotent: true},
		})
		start := time.Now()
		var calls int
		_, err := callpath.Execute(t.Context(), p, func(ctx context.Context) (int, error) {
			calls++
			if calls < 3 {
				return 0, errDown
			}
			<-ctx.Done()
			assert.Equal(t, callpath.ErrTimeout, context.Cause(ctx))
			return 0, ctx.Err()
		})
		assert.Equal(t, time.Second, time.Since(start))
		assert.Equal(t, 3, calls)
		require.ErrorIs(t, err, callpath.ErrTimeout)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.NotErrorIs(t, err, callpath.ErrAttemptTimeout)
		var te *callpath.TimeoutError
		require.ErrorAs(t, err, &te)
		assert.False(t, te.Attempt)
		assert.Equal(t, time.Second, te.After)
		assert.Equal(t, "callpath: timeout after 1s: context deadline exceeded (3 attempts): context deadline exceeded", err.Error())
		assert.Equal(t, int64(1), c.n.Load(), "one failure recorded for the request")
		assert.Equal(t, int64(1), br.Metrics().Failures)
	})
}

// TestCallerDeadline: a deadline of the caller's own is reported as the
// caller's context reports it, not as the Path's timeout.
func TestCallerDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPath(t, callpath.Config{Timeout: time.Minute})
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		_, err := callpath.Execute(ctx, p, func(ctx context.Context) (int, error) {
			<-ctx.Done()
			return 0, ctx.Err()
		})
		assert.Equal(t, context.DeadlineExceeded, err)
	})
}

// TestRetryStopsBeforeTheDeadline: a delay that would not leave time for
// another attempt ends the retry with retry.ErrDeadline, at once.
func TestRetryStopsBeforeTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPath(t, callpath.Config{
			Timeout: time.Second,
			Retry:   &retry.Policy{MaxAttempts: 3, BaseDelay: 2 * time.Second, MaxDelay: 2 * time.Second, Jitter: retry.JitterNone},
		})
		start := time.Now()
		op, calls := script(errDown)
		_, err := callpath.Execute(t.Context(), p, op)
		assert.ErrorIs(t, err, retry.ErrDeadline)
		assert.ErrorIs(t, err, errDown)
		assert.NotErrorIs(t, err, callpath.ErrTimeout, "the retry gave up, not the deadline")
		assert.Equal(t, int64(1), calls.Load())
		assert.Zero(t, time.Since(start))
	})
}

func TestZeroPath(t *testing.T) {
	ctx := t.Context()
	for name, p := range map[string]*callpath.Path{"nil": nil, "zero": {}, "New": newPath(t, callpath.Config{})} {
		var got context.Context
		v, err := callpath.Execute(ctx, p, func(c context.Context) (int, error) {
			got = c
			return 7, nil
		})
		require.NoError(t, err, name)
		assert.Equal(t, 7, v, name)
		assert.Equal(t, ctx, got, "%s: the caller's context, as it is", name)

		op, calls := script(errDown)
		_, err = callpath.Execute(ctx, p, op)
		assert.Equal(t, errDown, err, "%s: the error as it is", name)
		assert.Equal(t, int64(1), calls.Load(), "%s: no retry", name)

		assert.NoError(t, p.Do(ctx, func(context.Context) error { return nil }), name)
	}
}

func TestDoneContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	bh := newBulkhead(t, bulkhead.Config{})
	p := newPath(t, callpath.Config{Breaker: newBreaker(t, breaker.Config{}), Retry: fast(3), Bulkhead: bh})
	for _, p := range []*callpath.Path{nil, p} {
		op, calls := script(nil)
		_, err := callpath.Execute(ctx, p, op)
		assert.Equal(t, context.Canceled, err)
		assert.Zero(t, calls.Load())
		fallback := false
		err = p.DoWithFallback(ctx, func(context.Context) error { return nil }, func(context.Context, error) error {
			fallback = true
			return nil
		})
		assert.Equal(t, context.Canceled, err)
		assert.False(t, fallback)
	}
}

// TestCancelledMidwayIsIgnored: a request the caller cancels says nothing
// about the dependency: the breaker ignores it, the retry stops.
func TestCancelledMidwayIsIgnored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		br := newBreaker(t, breaker.Config{})
		p := newPath(t, callpath.Config{Breaker: br, Retry: &retry.Policy{MaxAttempts: 3, BaseDelay: time.Second, MaxDelay: time.Second}})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() {
			_, err := callpath.Execute(ctx, p, func(context.Context) (int, error) { return 0, errDown })
			done <- err
		}()
		synctest.Wait() // asleep in the retry's delay
		cancel()
		err := <-done
		assert.ErrorIs(t, err, context.Canceled)
		assert.ErrorIs(t, err, errDown)
		assert.Zero(t, br.Metrics().Calls, "ignored")
	})
}

func TestDo(t *testing.T) {
	p := newPath(t, callpath.Config{Retry: fast(3)})
	var calls int
	err := p.Do(t.Context(), func(context.Context) error {
		calls++
		if calls < 2 {
			return errDown
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 2, calls)

	err = p.Do(t.Context(), func(context.Context) error { return errInvalid })
	assert.Equal(t, errInvalid, err, "not retryable: returned as it is")
}

// TestValueWithError: with an error comes the value the last attempt
// returned.
func TestValueWithError(t *testing.T) {
	p := newPath(t, callpath.Config{Retry: fast(2)})
	var n int
	v, err := callpath.Execute(t.Context(), p, func(context.Context) (int, error) {
		n++
		return n * 10, errDown
	})
	assert.ErrorIs(t, err, retry.ErrAttemptsExhausted)
	assert.Equal(t, 20, v)
}

// TestPanic: a panicking operation gives its slot back and counts as a
// failure; the panic goes on.
func TestPanic(t *testing.T) {
	br := newBreaker(t, breaker.Config{})
	bh := newBulkhead(t, bulkhead.Config{MaxConcurrent: 1})
	p := newPath(t, callpath.Config{Breaker: br, Retry: fast(3), Bulkhead: bh, AttemptTimeout: time.Second})
	assert.PanicsWithValue(t, "boom", func() {
		_ = p.Do(t.Context(), func(context.Context) error { panic("boom") })
	})
	assert.Zero(t, bh.InUse())
	assert.Equal(t, int64(1), br.Metrics().Failures)
}

// TestRetryCopied: the Path keeps its own copy of the policy.
func TestRetryCopied(t *testing.T) {
	pol := fast(2)
	p := newPath(t, callpath.Config{Retry: pol})
	pol.MaxAttempts = 9
	op, calls := script(errDown)
	_, _ = callpath.Execute(t.Context(), p, op)
	assert.Equal(t, int64(2), calls.Load())

	c := p.Config()
	require.NotNil(t, c.Retry)
	assert.Equal(t, 2, c.Retry.MaxAttempts)
	c.Retry.MaxAttempts = 5
	assert.Equal(t, 2, p.Config().Retry.MaxAttempts)
	assert.Equal(t, callpath.Config{}, (*callpath.Path)(nil).Config())
}
