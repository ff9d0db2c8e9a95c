// Package s: under -decoratororder.strict, a retry outside a breaker is
// reported even when it stops on the open error.
package s

import (
	"errors"
	"time"

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
