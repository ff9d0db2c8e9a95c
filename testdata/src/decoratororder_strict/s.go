// Package s: under -decoratororder.strict, a retry outside a breaker is
// reported even when it stops on the open error.
package s

import (
	"errors"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/sony/gobreaker"
)

var cb = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "pricing"})

func call() error { return nil }

func stopsOnOpen() error {
	var err error
	for i := 0; i < 3; i++ { // want `retry outside a circuit breaker: .* \(this retry stops on the open error; reported because of -decoratororder.strict\)`
		_, err = cb.Execute(func() (interface{}, error) { return nil, call() })
		if err == nil {
			return nil
		}
		if errors.Is(err, gobreaker.ErrOpenState) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// Breaker outside: fine even when strict.
func breakerOutside() error {
	_, err := cb.Execute(func() (interface{}, error) {
		var err error
		for i := 0; i < 3; i++ {
			if err = call(); err == nil {
				return nil, nil
			}
			time.Sleep(time.Second)
		}
		return nil, err
	})
	return err
}

// failsafe-go's AbortOnErrors(ErrOpen) is a stop on the open error too.
func abortsOnOpen() error {
	return failsafe.With[any](retrypolicy.NewBuilder[any]().AbortOnErrors(circuitbreaker.ErrOpen).Build()).Run(func() error { // want `retry outside a circuit breaker: .* \(this retry stops on the open error; reported because of -decoratororder.strict\)`
		_, err := cb.Execute(func() (interface{}, error) { return nil, call() })
		return err
	})
}
