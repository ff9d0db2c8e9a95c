// Package decoratororder defines an Analyzer that reports retries placed
// outside circuit breakers.
//
// # Analyzer decoratororder
//
// decoratororder: report a retry outside a circuit breaker, and retries of a breaker's open error
//
// A circuit breaker exists to stop calling a dependency that is failing.
// A retry wrapped around it works against it: while the breaker is open,
// every attempt fails at once with the breaker's open error, so the retry
// only adds latency (its delays) and load on the caller; while it is
// closed, one failing request is counted once per attempt, so the breaker
// opens several times too early. The order that keeps one logical outcome
// per request, outermost first, is
//
//	deadline → fallback → circuit breaker → retry → bulkhead → per-attempt timeout → call
//
// The check reports, at the retry, a retry whose attempts reach a breaker
// call (sony/gobreaker v1 and v2 Execute and two-step Allow, afex/hystrix-go
// Do, DoC, Go, eapache/go-resiliency's breaker, failsafe-go circuit breaker
// policies, resilint's runtime/breaker) directly, through helpers and
// closures, or in other packages; a failsafe-go executor that lists its
// retry policy before its circuit breaker (failsafe.With lists policies
// outermost first); and a retry whose classifier explicitly retries the
// breaker's open error.
//
// A retry outside a breaker that stops at once on the open error
// (returns it, breaks, or marks it permanent on errors.Is(err,
// gobreaker.ErrOpenState) and the like; runtime/retry always does) is the
// only acceptable form of retry-outside and is not reported, unless the
// -decoratororder.strict flag asks for the breaker outside always.
//
// Suggested fixes: swap the failsafe-go policies; for a library retry whose
// operation is only a breaker call, put the breaker call outside.
package decoratororder
