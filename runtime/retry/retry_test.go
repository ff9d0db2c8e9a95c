package retry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"
)

var errBoom = errors.New("boom")

// failing returns an op that fails n times with err, then succeeds, and
// counts its calls.
func failing(n int, err error, calls *int) func(context.Context) error {
	return func(context.Context) error {
		*calls++
		if *calls <= n {
			return err
		}
		return nil
	}
}

func TestDoFirstAttemptSucceeds(t *testing.T) {
	calls := 0
	require.NoError(t, Do(context.Background(), &Policy{}, failing(0, errBoom, &calls)))
	assert.Equal(t, 1, calls)
}

func TestDoRetriesWithBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		//resilint:ignore backoff the test needs exact, deterministic delays
		p := &Policy{MaxAttempts: 5, BaseDelay: time.Second, MaxDelay: time.Minute, Jitter: JitterNone}
		calls := 0
		start := time.Now()
		require.NoError(t, Do(t.Context(), p, failing(2, errBoom, &calls)))
		assert.Equal(t, 3, calls)
		assert.Equal(t, 3*time.Second, time.Since(start)) // 1s + 2s
	})
}

func TestDoAttemptsExhausted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		start := time.Now()
		err := Do(t.Context(), nil, failing(100, errBoom, &calls)) // nil: the zero policy
		assert.Equal(t, DefaultMaxAttempts, calls)
		assert.LessOrEqual(t, time.Since(start), DefaultBaseDelay*3) // full jitter: at most 100ms + 200ms
		var re *Error
		require.ErrorAs(t, err, &re)
		assert.Equal(t, 3, re.Attempts)
		assert.ErrorIs(t, err, ErrAttemptsExhausted)
		assert.ErrorIs(t, err, errBoom)
		assert.Equal(t, "retry: attempts exhausted (3 attempts): boom", err.Error())

		calls = 0
		err = Do(t.Context(), &Policy{MaxAttempts: 1}, failing(100, errBoom, &calls))
		assert.Equal(t, 1, calls)
		assert.Equal(t, "retry: attempts exhausted (1 attempt): boom", err.Error())
	})
}

func TestDoStopsAtOnce(t *testing.T) {
	inner := errors.New("bad request")
	tests := []struct {
		name    string
		err     error
		p       Policy
		want    error
		wantMsg string
	}{
		{"permanent", Permanent(inner), Policy{}, inner, "bad request"},
		{"wrapped permanent", fmt.Errorf("call: %w", Permanent(inner)), Policy{}, inner, "call: bad request"},
		{"classifier says no", inner, Policy{Classify: func(error) bool { return false }}, inner, "bad request"},
		{"default classifier: 404", &StatusError{StatusCode: 404, Status: "404 Not Found"}, Policy{}, nil, "retry: HTTP status 404 Not Found"},
		{"resilint breaker open", openErr{}, Policy{Classify: func(error) bool { return true }}, openErr{}, "breaker: circuit open"},
		{"canceled attempt", context.Canceled, Policy{}, context.Canceled, "context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			err := Do(context.Background(), &tt.p, failing(100, tt.err, &calls))
			assert.Equal(t, 1, calls)
			assert.EqualError(t, err, tt.wantMsg)
			var re *Error
			assert.False(t, errors.As(err, &re), "not wrapped in *Error")
			if tt.want != nil {
				assert.ErrorIs(t, err, tt.want)
			}
		})
	}
	// The Permanent mark itself is removed.
	err := Do(context.Background(), nil, func(context.Context) error { return Permanent(inner) })
	assert.Same(t, inner, err)
	assert.Nil(t, Permanent(nil))
	assert.True(t, IsPermanent(fmt.Errorf("x: %w", Permanent(inner))))
	assert.False(t, IsPermanent(inner))
}

type openErr struct{}

func (openErr) Error() string     { return "breaker: circuit open" }
func (openErr) CircuitOpen() bool { return true }

func TestDoDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Attempts at 0s and 1s; the next delay (2s) would end past the
		// deadline at 2.5s, so Do stops at 1s without sleeping.
		ctx, cancel := context.WithTimeout(t.Context(), 2500*time.Millisecond)
		defer cancel()
		//resilint:ignore backoff the test needs exact, deterministic delays
		p := &Policy{MaxAttempts: 10, BaseDelay: time.Second, MaxDelay: time.Minute, Jitter: JitterNone}
		calls := 0
		start := time.Now()
		err := Do(ctx, p, failing(100, errBoom, &calls))
		assert.Equal(t, 2, calls)
		assert.Equal(t, time.Second, time.Since(start))
		assert.ErrorIs(t, err, ErrDeadline)
		assert.ErrorIs(t, err, errBoom)
		assert.Equal(t, "retry: not enough time left before the deadline for another attempt (2 attempts): boom", err.Error())

		// With a minimum attempt budget of 2s, 1s + 2s does not fit in 2.5s.
		ctx, cancel = context.WithTimeout(t.Context(), 2500*time.Millisecond)
		defer cancel()
		p.MinAttemptBudget = 2 * time.Second
		calls = 0
		err = Do(ctx, p, failing(100, errBoom, &calls))
		assert.Equal(t, 1, calls)
		assert.ErrorIs(t, err, ErrDeadline)

		// A huge minimum budget does not overflow.
		p.MinAttemptBudget = math.MaxInt64
		calls = 0
		assert.ErrorIs(t, Do(ctx, p, failing(100, errBoom, &calls)), ErrDeadline)
	})
}

func TestDoCancellation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Cancelled before the first attempt: op is not called.
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		calls := 0
		err := Do(ctx, nil, failing(0, nil, &calls))
		assert.Equal(t, 0, calls)
		assert.Equal(t, context.Canceled, err)

		// Cancelled during the delay: Do returns at once.
		ctx, cancel = context.WithCancel(t.Context())
		//resilint:ignore backoff the test needs exact, deterministic delays
		p := &Policy{BaseDelay: time.Second, Jitter: JitterNone}
		go func() {
			time.Sleep(300 * time.Millisecond)
			cancel()
		}()
		calls = 0
		start := time.Now()
		err = Do(ctx, p, failing(100, errBoom, &calls))
		assert.Equal(t, 1, calls)
		assert.Equal(t, 300*time.Millisecond, time.Since(start))
		assert.ErrorIs(t, err, context.Canceled)
		assert.ErrorIs(t, err, errBoom)

		// Cancelled during an attempt: no further attempt.
		ctx, cancel = context.WithCancel(t.Context())
		calls = 0
		err = Do(ctx, p, func(context.Context) error { calls++; cancel(); return errBoom })
		assert.Equal(t, 1, calls)
		assert.ErrorIs(t, err, context.Canceled)
		assert.ErrorIs(t, err, errBoom)

		// The caller's deadline passes during an attempt.
		ctx, cancel = context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		err = Do(ctx, &Policy{Idempotent: true}, func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
		var re *Error
		require.ErrorAs(t, err, &re)
		assert.Equal(t, context.DeadlineExceeded, re.Reason)
	})
}

func TestDoPerAttemptTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var deadlines []time.Duration
		hang := func(ctx context.Context) error {
			dl, ok := ctx.Deadline()
			require.True(t, ok)
			deadlines = append(deadlines, time.Until(dl))
			_, ok = AttemptFromContext(ctx)
			require.True(t, ok, "identity through the timeout context")
			<-ctx.Done()
			return ctx.Err()
		}
		// A timeout means the outcome is unknown: not retried unless idempotent.
		//resilint:ignore backoff the test needs exact, deterministic delays
		p := &Policy{PerAttemptTimeout: 2 * time.Second, BaseDelay: time.Second, Jitter: JitterNone}
		start := time.Now()
		err := Do(t.Context(), p, hang)
		assert.Equal(t, context.DeadlineExceeded, err)
		assert.Equal(t, 2*time.Second, time.Since(start))

		p.Idempotent = true
		deadlines = nil
		start = time.Now()
		err = Do(t.Context(), p, hang)
		assert.ErrorIs(t, err, ErrAttemptsExhausted)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, []time.Duration{2 * time.Second, 2 * time.Second, 2 * time.Second}, deadlines)
		assert.Equal(t, 3*2*time.Second+time.Second+2*time.Second, time.Since(start))

		// The caller's deadline, if sooner, bounds the attempt.
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		deadlines = nil
		//resilint:ignore timeoutchain the test builds a deadline that cannot fit on purpose
		_ = Do(ctx, p, hang)
		assert.Equal(t, []time.Duration{time.Second}, deadlines)
	})
}

func TestDoRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		//resilint:ignore backoff the test needs exact, deterministic delays
		p := &Policy{BaseDelay: time.Second, MaxDelay: 10 * time.Second, Jitter: JitterNone}
		unavailable := &StatusError{StatusCode: 503, After: 4 * time.Second}

		calls := 0
		start := time.Now()
		require.NoError(t, Do(t.Context(), p, failing(1, unavailable, &calls)))
		assert.Equal(t, 4*time.Second, time.Since(start), "Retry-After above the backoff delay wins")

		calls = 0
		start = time.Now()
		require.NoError(t, Do(t.Context(), p, failing(1, &StatusError{StatusCode: 429, After: time.Millisecond}, &calls)))
		assert.Equal(t, time.Second, time.Since(start), "the backoff delay, if longer, wins")

		// Longer than MaxDelay: stop, without waiting.
		calls = 0
		start = time.Now()
		err := Do(t.Context(), p, failing(1, fmt.Errorf("get: %w", &StatusError{StatusCode: 503, After: time.Minute}), &calls))
		assert.Equal(t, 1, calls)
		assert.Zero(t, time.Since(start))
		assert.ErrorIs(t, err, ErrRetryAfterTooLong)
		var se *StatusError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, time.Minute, se.RetryAfter())

		// Past the deadline: stop, without waiting.
		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
		defer cancel()
		calls = 0
		err = Do(ctx, p, failing(1, unavailable, &calls))
		assert.Equal(t, 1, calls)
		assert.ErrorIs(t, err, ErrDeadline)
	})
}

func TestDoIdentity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var seen []Attempt
		op := func(ctx context.Context) error {
			// Visible in the context Do passes and in contexts derived from it.
			type key struct{}
			a, ok := AttemptFromContext(context.WithValue(ctx, key{}, 1))
			require.True(t, ok)
			seen = append(seen, a)
			if a.Number < 3 {
				return errBoom
			}
			return nil
		}
		require.NoError(t, Do(t.Context(), &Policy{MaxAttempts: 5}, op))
		require.Len(t, seen, 3)
		id := seen[0].RequestID
		assert.Regexp(t, "^[0-9a-f]{32}$", id)
		for i, a := range seen {
			assert.Equal(t, Attempt{RequestID: id, Number: i + 1}, a)
		}

		seen = nil
		require.NoError(t, Do(t.Context(), &Policy{MaxAttempts: 5}, op))
		assert.NotEqual(t, id, seen[0].RequestID, "a new ID per call")

		_, ok := AttemptFromContext(t.Context())
		assert.False(t, ok)

		// The caller's values, deadline and cancellation pass through.
		type key struct{}
		parent, cancel := context.WithTimeout(context.WithValue(t.Context(), key{}, "v"), time.Hour)
		defer cancel()
		var kept context.Context
		_ = Do(parent, nil, func(ctx context.Context) error {
			kept = ctx
			assert.Equal(t, "v", ctx.Value(key{}))
			dl, ok := ctx.Deadline()
			assert.True(t, ok)
			assert.Equal(t, time.Hour, time.Until(dl))
			assert.Equal(t, parent.Done(), ctx.Done())
			assert.NoError(t, ctx.Err())
			assert.Equal(t, "retry.attemptContext", fmt.Sprint(ctx))
			return nil
		})
		// Once op has returned, the context is still its own call's.
		a, ok := AttemptFromContext(kept)
		assert.True(t, ok)
		assert.Equal(t, 1, a.Number)
		assert.NoError(t, kept.Err())
		assert.Equal(t, "v", kept.Value(key{}))
	})
}

// TestStaleContextIsMemorySafe: a context kept past op's return does not
// race with later calls (run with -race).
func TestStaleContextIsMemorySafe(t *testing.T) {
	var kept context.Context
	_ = Do(context.Background(), nil, func(ctx context.Context) error { kept = ctx; return nil })
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 1000 {
			_ = kept.Err()
			_, _ = AttemptFromContext(kept)
			_ = kept.Value("x")
			_, _ = kept.Deadline()
		}
	})
	for range 1000 {
		_ = Do(context.Background(), nil, func(ctx context.Context) error { _, _ = AttemptFromContext(ctx); return nil })
	}
	wg.Wait()
}

func TestDoOnRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var events []RetryEvent
		var ids []string
		//resilint:ignore backoff the test needs exact, deterministic delays
		p := &Policy{MaxAttempts: 4, BaseDelay: time.Second, Jitter: JitterNone, OnRetry: func(ctx context.Context, ev RetryEvent) {
			a, ok := AttemptFromContext(ctx)
			require.True(t, ok)
			ids = append(ids, a.RequestID)
			events = append(events, ev)
		}}
		calls := 0
		require.NoError(t, Do(t.Context(), p, failing(2, errBoom, &calls)))
		assert.Equal(t, []RetryEvent{{1, errBoom, time.Second}, {2, errBoom, 2 * time.Second}}, events)
		assert.Equal(t, ids[0], ids[1])
	})
}

func TestDoValue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := 0
		v, err := DoValue(t.Context(), nil, func(ctx context.Context) (string, error) {
			n++
			a, _ := AttemptFromContext(ctx)
			if n < 2 {
				return "partial", errBoom
			}
			return fmt.Sprintf("ok on attempt %d", a.Number), nil
		})
		require.NoError(t, err)
		assert.Equal(t, "ok on attempt 2", v)

		v, err = DoValue(t.Context(), &Policy{MaxAttempts: 2}, func(context.Context) (string, error) { return "last", errBoom })
		assert.ErrorIs(t, err, ErrAttemptsExhausted)
		assert.Equal(t, "last", v, "the last attempt's value comes with the error")
	})
}

func TestValidate(t *testing.T) {
	tests := []struct {
		p    Policy
		want string // substring; "" means valid
	}{
		{Policy{}, ""},
		{Policy{MaxAttempts: 1, BaseDelay: time.Nanosecond, MaxDelay: time.Nanosecond}, ""},
		{Policy{MaxAttempts: -1}, "retry: invalid Policy.MaxAttempts -1: want at least 1"},
		{Policy{BaseDelay: -time.Second}, "retry: invalid Policy.BaseDelay -1s: want a positive duration"},
		{Policy{MaxDelay: -1}, "retry: invalid Policy.MaxDelay -1ns: want a positive duration"},
		{Policy{BaseDelay: time.Minute}, ""},     // MaxDelay follows
		{Policy{MaxDelay: time.Millisecond}, ""}, // BaseDelay follows
		{Policy{BaseDelay: time.Minute, MaxDelay: time.Second}, "retry: invalid Policy.BaseDelay 1m0s: above MaxDelay 1s"},
		{Policy{Jitter: 7}, "retry: invalid Policy.Jitter 7: unknown"},
		{Policy{Jitter: -1}, "retry: invalid Policy.Jitter -1: unknown"},
		{Policy{PerAttemptTimeout: -1}, "retry: invalid Policy.PerAttemptTimeout -1ns: want a positive duration"},
		{Policy{MinAttemptBudget: -time.Second}, "retry: invalid Policy.MinAttemptBudget -1s: want a positive duration"},
	}
	for _, tt := range tests {
		err := tt.p.Validate()
		if tt.want == "" {
			assert.NoError(t, err)
			continue
		}
		require.Error(t, err, tt.want)
		var ce *ConfigError
		assert.ErrorAs(t, err, &ce)
		assert.Contains(t, err.Error(), tt.want)

		// Do returns the same error without calling op, and never spins.
		called := false
		derr := Do(context.Background(), &tt.p, func(context.Context) error { called = true; return nil })
		assert.False(t, called)
		assert.Equal(t, err.Error(), derr.Error())
	}

	// Every problem is reported.
	err := (&Policy{MaxAttempts: -3, BaseDelay: -1, Jitter: 99}).Validate()
	assert.Equal(t, 3, strings.Count(err.Error(), "retry: invalid Policy."))
	assert.NoError(t, (*Policy)(nil).Validate())
}

func TestValidateFor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		assert.NoError(t, (*Policy)(nil).ValidateFor(ctx))
		assert.NoError(t, (&Policy{}).ValidateFor(ctx))
		assert.NoError(t, (&Policy{PerAttemptTimeout: time.Second}).ValidateFor(ctx))
		assert.NoError(t, (&Policy{PerAttemptTimeout: time.Hour}).ValidateFor(t.Context()), "no deadline")

		var ce *ConfigError
		err := (&Policy{PerAttemptTimeout: 2 * time.Second}).ValidateFor(ctx)
		assert.ErrorAs(t, err, &ce)
		assert.EqualError(t, err, "retry: invalid Policy.PerAttemptTimeout 2s: × MaxAttempts 3 = 6s exceeds the 5s left before the deadline")

		err = (&Policy{PerAttemptTimeout: math.MaxInt64 / 2, MaxAttempts: 5}).ValidateFor(ctx)
		assert.ErrorAs(t, err, &ce, "no overflow")

		assert.ErrorAs(t, (&Policy{MaxAttempts: -1, PerAttemptTimeout: time.Hour}).ValidateFor(ctx), &ce)
	})
}

func TestDefaultsFollowEachOther(t *testing.T) {
	p := &Policy{MaxDelay: time.Millisecond}
	assert.Equal(t, time.Millisecond, p.baseDelay())
	p = &Policy{MaxDelay: time.Hour}
	assert.Equal(t, DefaultBaseDelay, p.baseDelay())
	p = &Policy{BaseDelay: time.Minute}
	assert.Equal(t, time.Minute, p.maxDelay())
	p = &Policy{BaseDelay: time.Millisecond}
	assert.Equal(t, DefaultMaxDelay, p.maxDelay())
	p = &Policy{}
	assert.Equal(t, DefaultBaseDelay, p.baseDelay())
	assert.Equal(t, DefaultMaxDelay, p.maxDelay())
}

func TestErrorMessage(t *testing.T) {
	assert.Equal(t, "retry: stopped (0 attempts)", (&Error{}).Error())
	e := &Error{Attempts: 2, Reason: ErrBudgetExhausted, Err: errBoom}
	assert.Equal(t, "retry: retry budget exhausted (2 attempts): boom", e.Error())
	assert.Equal(t, []error{ErrBudgetExhausted, errBoom}, e.Unwrap())
}

func TestConcurrentDo(t *testing.T) {
	b, err := NewBudget(BudgetConfig{})
	require.NoError(t, err)
	p := &Policy{MaxAttempts: 3, BaseDelay: time.Nanosecond, MaxDelay: time.Microsecond, Budget: b}
	var mu sync.Mutex
	ids := map[string]bool{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				_ = Do(context.Background(), p, func(ctx context.Context) error {
					a, ok := AttemptFromContext(ctx)
					if !ok {
						return Permanent(errors.New("no identity"))
					}
					if a.Number == 1 {
						mu.Lock()
						ids[a.RequestID] = true
						mu.Unlock()
					}
					if (g+i)%3 == 0 && a.Number == 1 {
						return errBoom
					}
					return nil
				})
			}
		})
	}
	wg.Wait()
	assert.Len(t, ids, 8*200, "request IDs are unique")
}

func TestOneAllocation(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters allocate")
	}
	ok := func(context.Context) error { return nil }
	cctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b, err := NewBudget(BudgetConfig{})
	require.NoError(t, err)
	policies := map[string]*Policy{"nil": nil, "zero": {}, "budget": {Budget: b}, "full": {MaxAttempts: 5, BaseDelay: time.Millisecond, MaxDelay: time.Second, Jitter: JitterDecorrelated, MinAttemptBudget: time.Millisecond, Idempotent: true, Classify: func(error) bool { return true }}}
	for name, p := range policies {
		for _, ctx := range []context.Context{context.Background(), cctx} {
			assert.Equal(t, 1.0, testing.AllocsPerRun(1000, func() { _ = Do(ctx, p, ok) }), "Do, policy %s", name)
			assert.Equal(t, 1.0, testing.AllocsPerRun(1000, func() {
				_, _ = DoValue(ctx, p, func(context.Context) (int, error) { return 1, nil })
			}), "DoValue, policy %s", name)
		}
	}
	// Using the context costs nothing more; the request ID is formatted
	// once per call, when first asked for: two more allocations (the
	// string and its cell).
	assert.Equal(t, 1.0, testing.AllocsPerRun(1000, func() {
		_ = Do(cctx, nil, func(ctx context.Context) error { _ = ctx.Done(); _ = ctx.Err(); return nil })
	}))
	assert.Equal(t, 3.0, testing.AllocsPerRun(1000, func() {
		_ = Do(cctx, nil, func(ctx context.Context) error {
			a, _ := AttemptFromContext(ctx)
			b, _ := AttemptFromContext(ctx)
			_, _ = a, b
			return nil
		})
	}))
}
