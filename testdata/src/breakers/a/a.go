// Package a calls through circuit breakers, with retries around them that
// stop on the open error, retry it, or neither.
package a

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

func viaBreaker() error { // want viaBreaker:"breaker"
	_, err := cb.Execute(func() (interface{}, error) { return nil, call() })
	return err
}

func viaHelper() error { // want viaHelper:`breaker\(via a.viaBreaker\)`
	return viaBreaker()
}

// Not a breaker call: the closure is kept to run later.
func stored() func() error {
	return func() error { return viaBreaker() }
}

func outside() error { // want outside:`breaker\(via a.viaHelper → a.viaBreaker\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = viaHelper(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func stops() error { // want stops:`breaker\(via a.viaBreaker\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = viaBreaker(); err == nil {
			return nil
		}
		if errors.Is(err, gobreaker.ErrOpenState) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

func retriesIt() error { // want retriesIt:`breaker\(via a.viaBreaker\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = viaBreaker(); err == nil {
			return nil
		}
		if errors.Is(err, gobreaker.ErrOpenState) {
			time.Sleep(time.Second)
			continue
		}
		return err
	}
	return err
}

// The executor with a circuit breaker policy is itself a breaker call.
func order() error { // want order:"breaker"
	return failsafe.With[any](retrypolicy.NewWithDefaults[any](), circuitbreaker.NewWithDefaults[any]()).Run(call)
}

func abortsOnOpen() error {
	return failsafe.With[any](retrypolicy.NewBuilder[any]().AbortOnErrors(circuitbreaker.ErrOpen).Build()).Run(viaBreaker)
}

// No breaker: nothing stated.
func noBreaker() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
