package errs

import (
	"context"
	"errors"
	"time"

	"github.com/afex/hystrix-go/hystrix"
	"github.com/eapache/go-resiliency/breaker"
)

var br = breaker.New(5, 2, 30*time.Second)

func push(ctx context.Context) error { return nil }

// A switch on the error whose case lists the open error and returns:
// the loop stops on it.
func pushSwitch(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = br.Run(func() error { return push(ctx) })
		switch err {
		case nil:
			return nil
		case breaker.ErrBreakerOpen:
			return err
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return err
}

// Near miss: the open error's case goes round again.
func pushSwitchRetries(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `explicitly retries the circuit breaker's open error`
		err = br.Run(func() error { return push(ctx) })
		switch err {
		case nil:
			return nil
		case breaker.ErrBreakerOpen:
			continue
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return err
}

// errors.As with the type of hystrix's open error (CircuitError, which
// its timeouts and full pools share): the loop stops on all of them.
func fetchAs(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = hystrix.DoC(ctx, "fetch", func(ctx context.Context) error { return push(ctx) }, nil)
		if err == nil {
			return nil
		}
		var ce hystrix.CircuitError
		if errors.As(err, &ce) {
			return err
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return err
}

// A type switch on the same type.
func fetchTypeSwitch(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = hystrix.DoC(ctx, "fetch", func(ctx context.Context) error { return push(ctx) }, nil)
		if err == nil {
			return nil
		}
		switch err.(type) {
		case hystrix.CircuitError:
			return err
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return err
}

// Near miss: errors.As with a type of its own, not the breaker's.
type timeoutError struct{}

func (timeoutError) Error() string { return "timeout" }

func fetchAsOther(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry outside a circuit breaker: retry loop \(3 attempts\) retries calls that go through hystrix.DoC`
		err = hystrix.DoC(ctx, "fetch", func(ctx context.Context) error { return push(ctx) }, nil)
		if err == nil {
			return nil
		}
		var te timeoutError
		if errors.As(err, &te) {
			return err
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return err
}

// Near miss: an unlabeled break in the open error's case leaves the
// switch, not the loop.
func pushSwitchBreaks(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry outside a circuit breaker`
		err = br.Run(func() error { return push(ctx) })
		switch err {
		case nil:
			return nil
		case breaker.ErrBreakerOpen:
			break
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return err
}

// A case that falls through into one that returns stops too.
func pushFallsIntoReturn(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = br.Run(func() error { return push(ctx) })
		switch err {
		case nil:
			return nil
		case breaker.ErrBreakerOpen:
			fallthrough
		case context.Canceled:
			return err
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return err
}

// Near miss: errors.As into a pointer to hystrix's error type, which its
// errors (values) never match.
func fetchAsPointer(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry outside a circuit breaker: retry loop \(3 attempts\) retries calls that go through hystrix.DoC`
		err = hystrix.DoC(ctx, "fetch", func(ctx context.Context) error { return push(ctx) }, nil)
		if err == nil {
			return nil
		}
		var ce *hystrix.CircuitError
		if errors.As(err, &ce) {
			return err
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return err
}

// The same type switch with the success as its nil case.
func fetchTypeSwitchNil(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = hystrix.DoC(ctx, "fetch", func(ctx context.Context) error { return push(ctx) }, nil)
		switch err.(type) {
		case nil:
			return nil
		case hystrix.CircuitError:
			return err
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return err
}
