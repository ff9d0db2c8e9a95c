package retry

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// Issue 11 (1): a context handed to the operation is never reused. A
// goroutine that keeps it after op returned (go audit(ctx)) must keep
// seeing its own call's values and cancellation, never another call's.
func TestKeptContextStaysItsOwn(t *testing.T) {
	type key struct{}
	parent := context.WithValue(context.Background(), key{}, "first")
	var kept context.Context
	var keptAttempt Attempt
	if err := Do(parent, nil, func(ctx context.Context) error {
		kept = ctx
		keptAttempt, _ = AttemptFromContext(ctx)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		other, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "other"))
		_ = Do(other, nil, func(ctx context.Context) error { _, _ = AttemptFromContext(ctx); return nil })
		if i%2 == 0 {
			cancel()
		}
		cancel()
	}
	if got := kept.Value(key{}); got != "first" {
		t.Errorf("kept context's value = %v, want %q (its own call's)", got, "first")
	}
	if err := kept.Err(); err != nil {
		t.Errorf("kept context's Err = %v, want nil: its caller's context was never canceled", err)
	}
	if a, ok := AttemptFromContext(kept); !ok || a != keptAttempt {
		t.Errorf("kept context's attempt = %+v, %v; want %+v, true", a, ok, keptAttempt)
	}
}

// A context kept from attempt 1 keeps saying attempt 1 while attempt 2 runs.
func TestKeptContextKeepsItsAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ctxs []context.Context
		//resilint:ignore backoff the test needs exact, deterministic delays
		p := &Policy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, Jitter: JitterNone}
		_ = Do(t.Context(), p, func(ctx context.Context) error {
			ctxs = append(ctxs, ctx)
			if len(ctxs) < 3 {
				return errBoom
			}
			return nil
		})
		var id string
		for i, ctx := range ctxs {
			a, ok := AttemptFromContext(ctx)
			if !ok || a.Number != i+1 {
				t.Errorf("attempt %d's context says %+v, %v", i+1, a, ok)
			}
			if i == 0 {
				id = a.RequestID
			} else if a.RequestID != id {
				t.Errorf("attempt %d's request ID %q, attempt 1's %q: want one ID per call", i+1, a.RequestID, id)
			}
		}
	})
}

// Issue 11 (2): a Policy is a plain value; copying it while Do runs on it
// is race-free (run with -race).
func TestCopyPolicyWhileDoRuns(t *testing.T) {
	var copies []Policy
	for range 50 {
		p := &Policy{MaxAttempts: 3, BaseDelay: time.Nanosecond, MaxDelay: time.Microsecond}
		var wg sync.WaitGroup
		wg.Go(func() {
			_ = Do(context.Background(), p, func(context.Context) error { return errBoom })
		})
		wg.Go(func() { _ = p.Delay(1, 0, nil) })
		for range 20 {
			copies = append(copies, *p)
		}
		wg.Wait()
	}
	if len(copies) != 50*20 {
		t.Fatal("copies lost")
	}
}

// Issue 11 (3): errors are never judged by their text. A rate limiter's
// errors.New("too many requests") is an ordinary error, retried.
func TestCircuitOpenIsNotJudgedByText(t *testing.T) {
	for _, msg := range []string{"too many requests", "circuit breaker is open"} {
		err := errors.New(msg)
		if IsCircuitOpen(err) {
			t.Errorf("IsCircuitOpen(errors.New(%q)) = true, want false", msg)
		}
		calls := 0
		synctest.Test(t, func(t *testing.T) {
			_ = Do(t.Context(), &Policy{MaxAttempts: 5}, func(context.Context) error { calls++; return err })
		})
		if calls != 5 {
			t.Errorf("errors.New(%q): %d attempts, want 5", msg, calls)
		}
	}
}
