// Package errs tells retries to stop on, or to retry, a breaker's open
// error through catalogued options and the CircuitOpen() bool protocol.
package errs

import (
	"errors"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/sony/gobreaker"
)

func call() error { return nil }

var cb = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "pricing"})

func viaBreaker() error {
	_, err := cb.Execute(func() (interface{}, error) { return nil, call() })
	return err
}

// An error of any type that says it is an open breaker's rejection: the
// loop stops on it.
func stopsOnCircuitOpenMethod() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = viaBreaker(); err == nil {
			return nil
		}
		var oe interface{ CircuitOpen() bool }
		if errors.As(err, &oe) && oe.CircuitOpen() {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// The near miss: a method of another name is no open check.
func otherMethod() error {
	var err error
	for i := 0; i < 3; i++ { // want `retry outside a circuit breaker: retry loop \(3 attempts\) retries calls that go through viaBreaker`
		if err = viaBreaker(); err == nil {
			return nil
		}
		var oe interface{ Overloaded() bool }
		if errors.As(err, &oe) && oe.Overloaded() {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// A retry policy built in the operation's own scope: the options that
// name the open error say what the retry does with it.
func retriesOpenByOption() error {
	return failsafe.With[any](retrypolicy.NewBuilder[any]().HandleErrors(circuitbreaker.ErrOpen).Build()).Run(func() error { // want `explicitly retries the circuit breaker's open error`
		return viaBreaker()
	})
}

// The near miss: a retry that stops at once on the open error is the
// acceptable form of a retry outside a breaker.
func abortsOnOpenByOption() error {
	return failsafe.With[any](retrypolicy.NewBuilder[any]().AbortOnErrors(circuitbreaker.ErrOpen).Build()).Run(func() error {
		return viaBreaker()
	})
}
