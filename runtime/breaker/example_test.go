package breaker_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/resilint/resilint/runtime/breaker"
)

var errUnavailable = errors.New("503 service unavailable")

func ExampleBreaker_Do() {
	b, err := breaker.New(breaker.Config{Name: "inventory", WindowSize: 10, MinimumCalls: 5})
	if err != nil {
		panic(err)
	}
	calls := 0
	callInventory := func(ctx context.Context) error {
		calls++
		return errUnavailable
	}
	for range 8 {
		err := b.Do(context.Background(), callInventory)
		fmt.Println(err)
	}
	fmt.Println("state:", b.State(), "- the dependency was called", calls, "times")
	// Output:
	// 503 service unavailable
	// 503 service unavailable
	// 503 service unavailable
	// 503 service unavailable
	// 503 service unavailable
	// breaker: circuit open
	// breaker: circuit open
	// breaker: circuit open
	// state: open - the dependency was called 5 times
}

func ExampleExecute() {
	b, err := breaker.New(breaker.Config{Name: "prices"})
	if err != nil {
		panic(err)
	}
	price, err := breaker.Execute(context.Background(), b, func(ctx context.Context) (float64, error) {
		return 9.99, nil
	})
	fmt.Println(price, err)
	// Output: 9.99 <nil>
}

func ExampleBreaker_Allow() {
	b, err := breaker.New(breaker.Config{})
	if err != nil {
		panic(err)
	}
	done, err := b.Allow()
	if err != nil {
		fmt.Println("rejected:", err)
		return
	}
	// ... make the call by other means, then report how it went, once.
	done(nil)
	fmt.Println(b.Metrics().Calls, "call recorded")
	// Output: 1 call recorded
}

// A retry loop, in a package that does not import breaker, stops at once on a
// rejection.
func ExampleErrOpen() {
	err := fmt.Errorf("get quote: %w", breaker.ErrOpen)
	var open interface{ CircuitOpen() bool }
	if errors.As(err, &open) && open.CircuitOpen() {
		fmt.Println("do not retry:", err)
	}
	// Output: do not retry: get quote: breaker: circuit open
}

// manualClock is a breaker.Clock for the example.
type manualClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *manualClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func ExampleBreaker_WriteHistory() {
	clk := &manualClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	b, err := breaker.New(breaker.Config{
		Name: "search", WindowSize: 4, MinimumCalls: 4,
		HalfOpenTrials: 2, HalfOpenSuccesses: 2,
		Clock: clk, Rand: func() float64 { return 0.5 }, // a fixed jitter, for the example
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	for range 4 {
		_ = b.Do(ctx, func(context.Context) error { return errUnavailable })
	}
	clk.Advance(5 * time.Second)
	for range 2 {
		_ = b.Do(ctx, func(context.Context) error { return nil })
	}
	if err := b.WriteHistory(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// {"time":"2026-03-01T12:00:00Z","breaker":"search","from":"closed","to":"open","reason":"failure rate 100.0% \u003e= 50.0% over the last 4 calls","generation":1,"open_until":"2026-03-01T12:00:04.5Z"}
	// {"time":"2026-03-01T12:00:05Z","breaker":"search","from":"open","to":"half-open","reason":"open wait of 4.5s elapsed","generation":2}
	// {"time":"2026-03-01T12:00:05Z","breaker":"search","from":"half-open","to":"closed","reason":"2 of 2 trial calls succeeded","generation":3}
}

func ExampleConfig_OnStateChange() {
	b, err := breaker.New(breaker.Config{
		Name: "mail", WindowSize: 2, MinimumCalls: 2,
		OnStateChange: func(t breaker.Transition) {
			fmt.Printf("%s: %s -> %s (%s)\n", t.Breaker, t.From, t.To, t.Reason)
		},
	})
	if err != nil {
		panic(err)
	}
	for range 2 {
		_ = b.Do(context.Background(), func(context.Context) error { return context.DeadlineExceeded })
	}
	// Output: mail: closed -> open (failure rate 100.0% >= 50.0% over the last 2 calls)
}
