package retry_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/resilint/resilint/runtime/retry"
)

func ExampleDo() {
	calls := 0
	flaky := func(ctx context.Context) error {
		calls++
		if calls < 3 {
			return errors.New("connection reset")
		}
		return nil
	}

	p := &retry.Policy{
		MaxAttempts: 4, // the first call and up to three retries
		BaseDelay:   time.Millisecond,
		MaxDelay:    10 * time.Millisecond,
	}
	err := retry.Do(context.Background(), p, flaky)
	fmt.Println(err, "after", calls, "attempts")
	// Output: <nil> after 3 attempts
}

func ExampleDo_givingUp() {
	p := &retry.Policy{MaxAttempts: 2, BaseDelay: time.Millisecond}
	err := retry.Do(context.Background(), p, func(ctx context.Context) error {
		return errors.New("connection refused")
	})
	fmt.Println(err)
	fmt.Println(errors.Is(err, retry.ErrAttemptsExhausted))
	// Output:
	// retry: attempts exhausted (2 attempts): connection refused
	// true
}

func ExampleDoValue() {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "hello")
	}))
	defer srv.Close()

	p := &retry.Policy{BaseDelay: time.Millisecond, Idempotent: true} // a GET
	body, err := retry.DoValue(context.Background(), p, func(ctx context.Context) (string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		if err != nil {
			return "", retry.Permanent(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		if err := retry.HTTPError(resp); err != nil {
			return "", err // carries the status and Retry-After
		}
		// Read the body inside the operation: its context ends when it returns.
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	})
	fmt.Println(body, err, hits.Load())
	// Output: hello <nil> 2
}

func ExampleAttemptFromContext() {
	_ = retry.Do(context.Background(), &retry.Policy{BaseDelay: time.Millisecond}, func(ctx context.Context) error {
		a, _ := retry.AttemptFromContext(ctx)
		fmt.Println("attempt", a.Number, "of request with an ID of", len(a.RequestID), "hex digits")
		// a.RequestID is the same for every attempt: an idempotency key.
		if a.Number < 2 {
			return errors.New("try again")
		}
		return nil
	})
	// Output:
	// attempt 1 of request with an ID of 32 hex digits
	// attempt 2 of request with an ID of 32 hex digits
}

func ExamplePermanent() {
	calls := 0
	err := retry.Do(context.Background(), nil, func(ctx context.Context) error {
		calls++
		return retry.Permanent(errors.New("invalid argument"))
	})
	fmt.Println(err, calls)
	// Output: invalid argument 1
}

func ExampleBackoff() {
	for _, k := range []int{0, 1, 2, 3, 10, 1 << 20, -1} {
		fmt.Println(k, retry.Backoff(100*time.Millisecond, 2*time.Second, k))
	}
	// Output:
	// 0 100ms
	// 1 200ms
	// 2 400ms
	// 3 800ms
	// 10 2s
	// 1048576 2s
	// -1 100ms
}

func ExampleFullJitter() {
	d := retry.FullJitter(retry.Backoff(100*time.Millisecond, 2*time.Second, 3))
	fmt.Println(d >= 0 && d <= 800*time.Millisecond)
	// Output: true
}

func ExampleEqualJitter() {
	d := retry.EqualJitter(800 * time.Millisecond)
	fmt.Println(d >= 400*time.Millisecond && d <= 800*time.Millisecond)
	// Output: true
}

// A hand-written loop with a cap, full jitter and a context-aware sleep:
// what the backoff check's fixes produce.
func ExampleSleep() {
	ctx := context.Background()
	call := func(i int) error {
		if i < 2 {
			return errors.New("unavailable")
		}
		return nil
	}
	var err error
	for i := range 5 {
		if err = call(i); err == nil {
			break
		}
		if serr := retry.Sleep(ctx, retry.FullJitter(retry.Backoff(time.Millisecond, 10*time.Millisecond, i))); serr != nil {
			err = errors.Join(err, serr)
			break
		}
	}
	fmt.Println(err)

	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	fmt.Println(retry.Sleep(ctx, time.Minute)) // returns at once
	// Output:
	// <nil>
	// retry: not enough time left before the deadline for another attempt
}

func ExampleNewBudget() {
	// One budget per downstream service, shared by all its calls: retries
	// stay under 10% of requests, plus one retry a second.
	budget, err := retry.NewBudget(retry.BudgetConfig{Ratio: 0.1, MinRetriesPerSecond: 1})
	if err != nil {
		panic(err)
	}
	p := &retry.Policy{BaseDelay: time.Millisecond, Budget: budget}
	down := func(ctx context.Context) error { return errors.New("unavailable") }

	fmt.Println(retry.Do(context.Background(), p, down)) // the floor pays for one retry
	fmt.Println(retry.Do(context.Background(), p, down)) // spent: no retry
	// Output:
	// retry: retry budget exhausted (2 attempts): unavailable
	// retry: retry budget exhausted (1 attempt): unavailable
}

func ExamplePolicy_Validate() {
	p := &retry.Policy{MaxAttempts: -1, BaseDelay: time.Minute, MaxDelay: time.Second}
	fmt.Println(p.Validate())
	// Output:
	// retry: invalid Policy.MaxAttempts -1: want at least 1 (or 0 for the default, 3)
	// retry: invalid Policy.BaseDelay 1m0s: above MaxDelay 1s
}

func ExamplePolicy_ValidateFor() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	p := &retry.Policy{PerAttemptTimeout: time.Second} // 3 attempts of up to 1s
	var ce *retry.ConfigError
	fmt.Println(errors.As(p.ValidateFor(ctx), &ce))
	// Output: true
}

func ExampleHTTPError() {
	resp := &http.Response{StatusCode: 429, Status: "429 Too Many Requests", Header: http.Header{"Retry-After": {"2"}}}
	err := retry.HTTPError(resp)
	var se *retry.StatusError
	if errors.As(err, &se) {
		fmt.Println(se.StatusCode, se.RetryAfter(), retry.Retryable(err, false))
	}
	// Output: 429 2s true
}

// errOtherOpen stands for another breaker library's "open" error.
var errOtherOpen = errors.New("circuit breaker is open")

// openError adapts another breaker's refusal for retry: IsCircuitOpen reads
// its CircuitOpen method, never an error's text.
type openError struct{ error }

func (e openError) CircuitOpen() bool { return true }
func (e openError) Unwrap() error     { return e.error }

func ExampleIsCircuitOpen() {
	calls := 0
	err := retry.Do(context.Background(), nil, func(ctx context.Context) error {
		calls++
		err := errOtherOpen // what the other breaker returned
		if errors.Is(err, errOtherOpen) {
			return openError{err}
		}
		return err
	})
	fmt.Println(calls, retry.IsCircuitOpen(err), errors.Is(err, errOtherOpen))
	fmt.Println(retry.IsCircuitOpen(errors.New("circuit breaker is open")))
	// Output:
	// 1 true true
	// false
}
