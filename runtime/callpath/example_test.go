package callpath_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/bulkhead"
	"github.com/resilint/resilint/runtime/callpath"
	"github.com/resilint/resilint/runtime/retry"
)

type Price struct {
	SKU   string
	Cents int64
}

func ExampleExecute() {
	// The breaker and the bulkhead belong to the dependency: share them.
	br, err := breaker.New(breaker.Config{Name: "pricing", Classify: callpath.BreakerClassify})
	if err != nil {
		panic(err)
	}
	bh, err := bulkhead.New(bulkhead.Config{MaxConcurrent: 20, MaxWait: 50 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	p, err := callpath.New(callpath.Config{
		Timeout:        2 * time.Second,
		Breaker:        br,
		Retry:          &retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond, Idempotent: true},
		Bulkhead:       bh,
		AttemptTimeout: 500 * time.Millisecond,
	})
	if err != nil {
		panic(err)
	}

	calls := 0
	price, err := callpath.Execute(context.Background(), p, func(ctx context.Context) (Price, error) {
		calls++
		if calls == 1 {
			return Price{}, errors.New("connection reset by peer")
		}
		return Price{SKU: "A-1", Cents: 1999}, nil
	})
	fmt.Println(price, err)
	fmt.Println("attempts:", calls, "outcomes recorded by the breaker:", br.Metrics().Calls)
	// Output:
	// {A-1 1999} <nil>
	// attempts: 2 outcomes recorded by the breaker: 1
}

func ExampleExecuteWithFallback() {
	br, err := breaker.New(breaker.Config{Name: "pricing", WindowSize: 1, MinimumCalls: 1, OpenWait: time.Minute})
	if err != nil {
		panic(err)
	}
	p, err := callpath.New(callpath.Config{
		Timeout:         time.Second,
		FallbackReserve: 100 * time.Millisecond, // time kept for the fallback
		Breaker:         br,
		Retry:           &retry.Policy{MaxAttempts: 2, BaseDelay: time.Millisecond},
	})
	if err != nil {
		panic(err)
	}
	cache := map[string]Price{"A-1": {SKU: "A-1", Cents: 1899}}

	get := func(sku string) (Price, error) {
		return callpath.ExecuteWithFallback(context.Background(), p,
			func(ctx context.Context) (Price, error) {
				return Price{}, &retry.StatusError{StatusCode: 503, Status: "503 Service Unavailable"}
			},
			// The fallback sees the error and decides; it must not hide every
			// failure behind a zero Price.
			func(ctx context.Context, err error) (Price, error) {
				if c, ok := cache[sku]; ok && errors.Is(err, breaker.ErrOpen) {
					return c, nil // stale, but the dependency is known to be down
				}
				return Price{}, err
			})
	}
	_, err = get("A-1") // fails; the circuit opens
	fmt.Println(err)
	price, err := get("A-1") // rejected by the open circuit: served from the cache
	fmt.Println(price, err)
	_, err = get("B-2") // not cached: the failure is passed on
	fmt.Println(err)
	// Output:
	// retry: attempts exhausted (2 attempts): retry: HTTP status 503 Service Unavailable
	// {A-1 1899} <nil>
	// breaker: circuit open
}

func ExamplePath_Do() {
	p, err := callpath.New(callpath.Config{
		Retry:          &retry.Policy{MaxAttempts: 2, BaseDelay: time.Millisecond},
		AttemptTimeout: 10 * time.Millisecond,
	})
	if err != nil {
		panic(err)
	}
	err = p.Do(context.Background(), func(ctx context.Context) error {
		<-ctx.Done() // a dependency that does not answer
		return ctx.Err()
	})
	fmt.Println(err)
	fmt.Println(errors.Is(err, callpath.ErrAttemptTimeout), errors.Is(err, context.DeadlineExceeded))
	// Output:
	// callpath: attempt timeout after 10ms: context deadline exceeded
	// true true
}

// Which layer gave up is in the error.
func Example_errors() {
	bh, err := bulkhead.New(bulkhead.Config{MaxConcurrent: 1})
	if err != nil {
		panic(err)
	}
	p, err := callpath.New(callpath.Config{
		Retry:    &retry.Policy{MaxAttempts: 2, BaseDelay: time.Millisecond},
		Bulkhead: bh,
	})
	if err != nil {
		panic(err)
	}
	bh.TryAcquire() // another request holds the only slot
	defer bh.Release()

	err = p.Do(context.Background(), func(ctx context.Context) error { return nil })
	switch {
	case errors.Is(err, breaker.ErrOpen):
		fmt.Println("circuit open")
	case errors.Is(err, bulkhead.ErrFull):
		var re *retry.Error
		if errors.As(err, &re) {
			fmt.Println("bulkhead full, after", re.Attempts, "attempts")
		}
	case errors.Is(err, callpath.ErrTimeout), errors.Is(err, callpath.ErrAttemptTimeout):
		fmt.Println("timed out")
	}
	// Output: bulkhead full, after 2 attempts
}

func ExampleBreakerClassify() {
	// A full bulkhead says nothing about the dependency's health.
	fmt.Println(callpath.BreakerClassify(bulkhead.ErrFull))
	fmt.Println(callpath.BreakerClassify(&retry.StatusError{StatusCode: 503}))
	fmt.Println(callpath.BreakerClassify(&retry.StatusError{StatusCode: 404}))
	// Output:
	// ignored
	// failure
	// success
}
