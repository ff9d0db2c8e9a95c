package ratelimit

import (
	"errors"
	"time"
)

var (
	// ErrLimited is what [Decision.Err] returns, wrapped in a
	// [*LimitedError], for a refused request.
	ErrLimited = errors.New("ratelimit: rate limit exceeded")

	// ErrStoreUnavailable is wrapped by the error a [Limiter] that fails
	// closed returns when its store failed or did not answer in time.
	ErrStoreUnavailable = errors.New("ratelimit: store unavailable")

	// ErrNegativeCount is returned by AllowN for a negative n.
	ErrNegativeCount = errors.New("ratelimit: negative request count")

	// ErrNoKey is returned by the key functions of this package when a
	// request carries no usable key; the middleware answers 400.
	ErrNoKey = errors.New("ratelimit: no rate-limit key in the request")
)

// LimitedError is the error of a refused [Decision]. errors.Is(err,
// ErrLimited) is true for it, and its RetryAfter method is what
// runtime/retry reads to wait before the next attempt. It is not a circuit
// breaker's rejection: the dependency is healthy, the caller is over its
// quota.
type LimitedError struct {
	// After is how long until the request would be admitted.
	After time.Duration
}

// Error returns "ratelimit: rate limit exceeded".
func (e *LimitedError) Error() string { return ErrLimited.Error() }

// Is makes errors.Is(err, ErrLimited) true.
func (e *LimitedError) Is(target error) bool { return target == ErrLimited }

// RetryAfter returns After.
func (e *LimitedError) RetryAfter() time.Duration { return e.After }

// storeError is the error of a Limiter that fails closed.
type storeError struct{ err error }

func (e *storeError) Error() string   { return ErrStoreUnavailable.Error() + ": " + e.err.Error() }
func (e *storeError) Unwrap() []error { return []error{ErrStoreUnavailable, e.err} }
