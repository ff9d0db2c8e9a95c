// Package callpath builds the path a call to one dependency takes through
// resilint's runtime primitives, in the one order that works, so that it
// cannot be got wrong. Outermost first:
//
//	total deadline → fallback → circuit breaker → retry → bulkhead → per-attempt timeout → call
//
// A [Config] names the parts; each is optional, and an absent part is simply
// not on the path. [New] checks the parts fit together and returns a [Path];
// [Execute] (or [Path.Do]) sends an operation down it:
//
//	p, err := callpath.New(callpath.Config{
//		Timeout:        2 * time.Second,
//		Breaker:        pricingBreaker,
//		Retry:          &retry.Policy{MaxAttempts: 3, Idempotent: true},
//		Bulkhead:       pricingBulkhead,
//		AttemptTimeout: 500 * time.Millisecond,
//	})
//	...
//	price, err := callpath.Execute(ctx, p, func(ctx context.Context) (Price, error) {
//		return pricing.Get(ctx, sku)
//	})
//
// # Why this order
//
//   - The total deadline is outermost: it bounds everything the path does
//     for one request, retries and their delays included.
//   - The fallback sits just inside it, around everything that can fail, so
//     it sees every failure — an open circuit, spent retries, a full
//     bulkhead, a timeout — and is told which one it was.
//   - The breaker is outside the retry, so it records one outcome per
//     logical request, not one per attempt, and an open circuit rejects the
//     request before a single attempt is made.
//   - The retry is outside the bulkhead, so a slot is taken for each attempt
//     and given back before the retry sleeps: waiting to retry never holds
//     capacity that other requests could use.
//   - The per-attempt timeout is inside the bulkhead, so it bounds the call
//     alone; the wait for a slot is bounded by the bulkhead's own MaxWait.
//
// # Fallbacks
//
// There is no default fallback. A fallback is an explicit function,
// given with each call to [ExecuteWithFallback] or [Path.DoWithFallback],
// that receives the error and decides: answer from a cache, degrade, or
// return the error. A fallback that quietly returns a zero value turns an
// outage into wrong answers that nobody notices.
//
// # Errors
//
// The error a Path returns says which layer gave up, through the sentinels
// of the packages involved: errors.Is(err, breaker.ErrOpen) for a
// rejection by the circuit, retry.ErrAttemptsExhausted, retry.ErrDeadline
// or retry.ErrBudgetExhausted for a retry that stopped, bulkhead.ErrFull
// for a full bulkhead, [ErrTimeout] and [ErrAttemptTimeout] for the Path's
// own timeouts. The operation's own error is always in the chain too.
//
// # Cost
//
// Without timeouts, a call that succeeds on its first attempt allocates
// nothing beyond what the operation does, but for the retry's attempt
// context (one small allocation, never reused); each timeout costs what
// context.WithTimeout costs. A Path is safe for concurrent use; share one
// per dependency, as you share its breaker and bulkhead.
package callpath
