// Package a places retries around circuit breakers.
package a

import (
	"context"
	"errors"
	"time"

	"github.com/afex/hystrix-go/hystrix"
	retrygo "github.com/avast/retry-go/v4"
	backoff "github.com/cenkalti/backoff/v4"
	"github.com/eapache/go-resiliency/breaker"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	rb "github.com/resilint/resilint/runtime/breaker"
	rt "github.com/resilint/resilint/runtime/retry"
	"github.com/sony/gobreaker"

	"decoratororder/pay"
)

func call() error                       { return nil }
func callCtx(ctx context.Context) error { return nil }

var cb = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "pricing"})

func viaBreaker() error {
	_, err := cb.Execute(func() (interface{}, error) { return nil, call() })
	return err
}

// A hand-written retry around a helper that goes through a breaker.
func loopAroundHelper() error {
	var err error
	for i := 0; i < 3; i++ { // want `retry outside a circuit breaker: retry loop \(3 attempts\) retries calls that go through viaBreaker, which calls gobreaker CircuitBreaker.Execute at a.go:\d+`
		if err = viaBreaker(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Across packages.
func acrossPackages(ctx context.Context, c *pay.Client) error {
	return backoff.Retry(func() error { // want `retry outside a circuit breaker: backoff.Retry \(4 attempts\) retries calls that go through \(\*pay.Client\).Charge, which calls gobreaker CircuitBreaker.Execute at pay.go:\d+`
		_, err := c.Charge(ctx)
		return err
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

var brk = breaker.New(3, 1, 5*time.Second)

// The canonical shape: the retried closure is only a breaker call.
func canonical() error {
	return retrygo.Do(func() error { // want `retry outside a circuit breaker: retry.Do \(3 attempts\) retries calls that go through breaker.Breaker.Run`
		return brk.Run(call)
	}, retrygo.Attempts(3))
}

func hystrixInLoop(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ { // want `retry outside a circuit breaker: retry loop \(2 attempts\) retries calls that go through hystrix.DoC`
		err = hystrix.DoC(ctx, "pricing", callCtx, nil)
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// failsafe-go lists policies outermost first.
func failsafeOrder() error {
	rp := retrypolicy.NewWithDefaults[any]()
	cbp := circuitbreaker.NewWithDefaults[any]()
	return failsafe.With[any](rp, cbp).Run(call) // want `retry policy listed before the circuit breaker: failsafe-go composes policies outermost first`
}

// A classifier that retries the open error explicitly.
func retriesOpen() error {
	return retrygo.Do(func() error { // want `retry.Do explicitly retries the circuit breaker's open error`
		return viaBreaker()
	}, retrygo.Attempts(3), retrygo.RetryIf(func(err error) bool {
		return errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, context.DeadlineExceeded)
	}))
}

// ---- near misses ---------------------------------------------------------

// Stops at once when the breaker is open: the acceptable retry-outside.
func stopsOnOpen() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = viaBreaker(); err == nil {
			return nil
		}
		if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

func permanentOnOpen() error {
	return backoff.Retry(func() error {
		err := viaBreaker()
		if err == gobreaker.ErrOpenState {
			return backoff.Permanent(err)
		}
		return err
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

// The classifier excludes the open error.
func classifierExcludes() error {
	return retrygo.Do(viaBreaker, retrygo.Attempts(3), retrygo.RetryIf(func(err error) bool {
		return !errors.Is(err, gobreaker.ErrOpenState)
	}))
}

// runtime/retry never retries a breaker's rejection.
func runtimeRetry(ctx context.Context, b *rb.Breaker) error {
	return rt.Do(ctx, &rt.Policy{MaxAttempts: 3}, func(ctx context.Context) error {
		return b.Do(ctx, callCtx)
	})
}

// The right order: breaker outside, retry inside.
func breakerOutside(ctx context.Context, b *rb.Breaker) error {
	return b.Do(ctx, func(ctx context.Context) error {
		var err error
		for i := 0; i < 3; i++ {
			if err = callCtx(ctx); err == nil {
				return nil
			}
			time.Sleep(time.Second)
		}
		return err
	})
}

func failsafeRightOrder() error {
	return failsafe.With[any](circuitbreaker.NewWithDefaults[any](), retrypolicy.NewWithDefaults[any]()).Run(call)
}

// A retry around calls that never reach a breaker.
func noBreaker() error {
	return retrygo.Do(call, retrygo.Attempts(3))
}

func notOpen(err error) bool {
	return !errors.Is(err, gobreaker.ErrOpenState)
}

// The classifier is a function of the package that excludes the open error.
func namedClassifier() error {
	return retrygo.Do(viaBreaker, retrygo.Attempts(3), retrygo.RetryIf(notOpen))
}

var twoStep = gobreaker.NewTwoStepCircuitBreaker(gobreaker.Settings{Name: "stock"})

// The two-step breaker: Allow, call, report.
func twoStepInLoop() error {
	var err error
	for i := 0; i < 3; i++ { // want `retry outside a circuit breaker: retry loop \(3 attempts\) retries calls that go through gobreaker TwoStepCircuitBreaker.Allow`
		done, aerr := twoStep.Allow()
		if aerr != nil {
			err = aerr
			time.Sleep(time.Second)
			continue
		}
		err = call()
		done(err == nil)
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Stops when the breaker says it is open.
func stopsOnState() error {
	var err error
	for i := 0; i < 3; i++ {
		if cb.State() == gobreaker.StateOpen {
			return errors.New("pricing unavailable")
		}
		if err = viaBreaker(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// runtime/retry stops only on errors with CircuitOpen(): gobreaker's
// rejection is retried like any other error.
func runtimeRetryAroundGobreaker(ctx context.Context) error {
	return rt.Do(ctx, &rt.Policy{MaxAttempts: 3}, func(ctx context.Context) error { // want `retry outside a circuit breaker`
		return viaBreaker()
	})
}

// ...unless its classifier stops on it.
func runtimeRetryClassifies(ctx context.Context) error {
	return rt.Do(ctx, &rt.Policy{MaxAttempts: 3, Classify: func(err error) bool {
		return !errors.Is(err, gobreaker.ErrOpenState)
	}}, func(ctx context.Context) error {
		return viaBreaker()
	})
}
