package a

import (
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
)

// Compose adds a policy inside the executor's: the retry policy given to
// With wraps the breaker composed in.
func failsafeCompose() error {
	rp := retrypolicy.NewWithDefaults[any]()
	cbp := circuitbreaker.NewWithDefaults[any]()
	return failsafe.With[any](rp).Compose(cbp).Run(call) // want `retry policy listed before the circuit breaker: failsafe-go composes policies outermost first`
}

// The near miss: the breaker given to With wraps the retry composed in.
func failsafeComposeInner() error {
	rp := retrypolicy.NewWithDefaults[any]()
	cbp := circuitbreaker.NewWithDefaults[any]()
	return failsafe.With[any](cbp).Compose(rp).Run(call)
}
