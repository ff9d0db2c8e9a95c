// Package retry runs an operation again when it fails, the way a service
// should: a bounded number of attempts, exponential delays with full jitter
// and a cap, no sleeping past the caller's deadline, a shared retry budget,
// an HTTP-aware classification of errors, and Retry-After honoured.
//
// The entry points are [Do] and [DoValue]; a [Policy] literal configures
// them, and the zero Policy is a usable default:
//
//	err := retry.Do(ctx, &retry.Policy{MaxAttempts: 4}, func(ctx context.Context) error {
//		return client.Ping(ctx)
//	})
//
// # Attempts, not retries
//
// [Policy.MaxAttempts] counts every call of the operation, the first one
// included: MaxAttempts 3 means one call and at most two retries.
//
// # Delays
//
// Before retry k (k = 0 for the first retry) the cap is
// min(MaxDelay, BaseDelay·2^k), computed without overflow for any k (see
// [Backoff]). The delay is drawn from [0, cap] (full jitter, the default);
// [JitterEqual], [JitterDecorrelated] and [JitterNone] are selectable.
// [FullJitter], [EqualJitter], [Backoff] and [Sleep] serve hand-written
// loops.
//
// # Stopping
//
// Do stops and returns at once when the operation succeeds, when the error
// is marked [Permanent], when it comes from an open circuit breaker, or when
// the classifier says it is not worth another attempt; it returns that error
// unchanged. Otherwise, when it gives up, it returns an [*Error] that wraps
// both the reason ([ErrAttemptsExhausted], [ErrDeadline],
// [ErrBudgetExhausted], [ErrRetryAfterTooLong], or the context's error) and
// the last error of the operation, so errors.Is works with either.
//
// # Identity
//
// Each call of Do is one logical request with a random request ID; each call
// of the operation is an attempt numbered from 1. The operation reads both
// with [AttemptFromContext], for logs, metrics and idempotency keys.
//
// # Cost
//
// When the first attempt succeeds, Do and DoValue make one small
// allocation, the attempt's context, which is never reused (plus what
// context.WithTimeout costs if a PerAttemptTimeout is set).
//
// All functions and types are safe for concurrent use; a Policy is a plain
// value with no hidden state, and may be shared by any number of goroutines,
// or copied, as long as it is not modified while in use.
package retry
