// Package circuitbreaker is a stub of github.com/failsafe-go/failsafe-go/circuitbreaker for tests.
package circuitbreaker

import (
	"errors"
	"time"

	"github.com/failsafe-go/failsafe-go"
)

var ErrOpen = errors.New("circuit breaker open")

type CircuitBreaker[R any] interface {
	failsafe.Policy[R]
	TryAcquirePermit() bool
}

type Builder[R any] interface {
	WithFailureThreshold(failureThreshold uint) Builder[R]
	WithDelay(delay time.Duration) Builder[R]
	Build() CircuitBreaker[R]
}

func NewWithDefaults[R any]() CircuitBreaker[R] { return nil }
func NewBuilder[R any]() Builder[R]             { return nil }
