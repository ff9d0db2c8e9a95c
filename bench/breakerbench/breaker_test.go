package breakerbench

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/sony/gobreaker/v2"

	"github.com/resilint/resilint/runtime/breaker"
)

// Each implementation is configured alike where it can be: a count window of
// 100 calls, opening at 50% failures from 20 calls on.

func newResilint(tb testing.TB, c breaker.Config) *breaker.Breaker {
	b, err := breaker.New(c)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func newGobreaker() *gobreaker.CircuitBreaker[int] {
	return gobreaker.NewCircuitBreaker[int](gobreaker.Settings{
		Name:     "bench",
		Interval: 0,
		Timeout:  5 * time.Second,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.Requests >= 20 && c.TotalFailures*2 >= c.Requests
		},
	})
}

func newFailsafe() circuitbreaker.CircuitBreaker[int] {
	return circuitbreaker.NewBuilder[int]().
		WithFailureThresholdRatio(50, 100).
		WithDelay(5 * time.Second).
		Build()
}

var errDown = errors.New("down")

// breakerCases returns one call through each implementation, in the closed
// (succeed) or open (the breaker was tripped first) state.
func breakerCases(tb testing.TB, open bool) []struct {
	name string
	call func()
} {
	ctx := context.Background()
	op := func(context.Context) error { return nil }
	opT := func(context.Context) (int, error) { return 1, nil }

	rl := newResilint(tb, breaker.Config{})
	rlSlow := newResilint(tb, breaker.Config{SlowCallDuration: time.Second})
	rlTime := newResilint(tb, breaker.Config{WindowDuration: time.Minute})
	gb := newGobreaker()
	fs := newFailsafe()
	fsExec := failsafe.With[int](fs)
	if open {
		for range 100 {
			_ = rl.Do(ctx, func(context.Context) error { return errDown })
			_, _ = gb.Execute(func() (int, error) { return 0, errDown })
			_, _ = fsExec.Get(func() (int, error) { return 0, errDown })
		}
		if rl.State() != breaker.StateOpen || gb.State() != gobreaker.StateOpen || !fs.IsOpen() {
			tb.Fatal("breakers did not open")
		}
	}
	return []struct {
		name string
		call func()
	}{
		{"impl=resilint-Do", func() { _ = rl.Do(ctx, op) }},
		{"impl=resilint-Execute", func() { _, _ = breaker.Execute(ctx, rl, opT) }},
		{"impl=resilint-slowcall", func() { _ = rlSlow.Do(ctx, op) }},
		{"impl=resilint-timewindow", func() { _ = rlTime.Do(ctx, op) }},
		{"impl=gobreaker", func() { _, _ = gb.Execute(func() (int, error) { return 1, nil }) }},
		{"impl=failsafe-permit", func() {
			if fs.TryAcquirePermit() {
				fs.RecordSuccess()
			}
		}},
		{"impl=failsafe-executor", func() { _, _ = fsExec.Get(func() (int, error) { return 1, nil }) }},
	}
}

func benchBreaker(b *testing.B, open bool) {
	for _, mode := range []string{"serial", "parallel"} {
		for _, c := range breakerCases(b, open) {
			if open && (c.name == "impl=resilint-slowcall" || c.name == "impl=resilint-timewindow") {
				continue // the same rejection path as resilint-Do
			}
			b.Run("mode="+mode+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				call := c.call
				if mode == "serial" {
					for b.Loop() {
						call()
					}
					return
				}
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						call()
					}
				})
			})
		}
	}
}

// BenchmarkBreakerClosed measures a successful call through a closed circuit:
// the overhead a breaker adds to every call of a healthy dependency.
func BenchmarkBreakerClosed(b *testing.B) { benchBreaker(b, false) }

// BenchmarkBreakerOpen measures a call rejected by an open circuit.
func BenchmarkBreakerOpen(b *testing.B) { benchBreaker(b, true) }
