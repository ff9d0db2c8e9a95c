// Package retrypolicy is a stub of github.com/failsafe-go/failsafe-go/retrypolicy for tests.
package retrypolicy

import (
	"time"

	"github.com/failsafe-go/failsafe-go"
)

type RetryPolicy[R any] interface {
	failsafe.Policy[R]
}

type Builder[R any] interface {
	HandleErrors(errors ...error) Builder[R]
	HandleIf(predicate func(R, error) bool) Builder[R]
	AbortOnResult(result R) Builder[R]
	AbortOnErrors(errs ...error) Builder[R]
	AbortOnErrorTypes(errs ...any) Builder[R]
	AbortIf(predicate func(R, error) bool) Builder[R]
	WithMaxAttempts(maxAttempts int) Builder[R]
	WithMaxRetries(maxRetries int) Builder[R]
	WithMaxDuration(maxDuration time.Duration) Builder[R]
	WithDelay(delay time.Duration) Builder[R]
	WithBackoff(delay time.Duration, maxDelay time.Duration) Builder[R]
	WithJitter(jitter time.Duration) Builder[R]
	OnRetry(listener func(any)) Builder[R]
	Build() RetryPolicy[R]
}

func NewWithDefaults[R any]() RetryPolicy[R] { return nil }
func NewBuilder[R any]() Builder[R]          { return nil }
