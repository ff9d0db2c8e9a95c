// Package breakers is the model's circuit-breaker layer: an analysis pass
// that reports nothing and states where the package calls through a
// circuit breaker, which of the model's retries (analyzers/internal/model)
// reach one from an attempt, and what each of those retries does with the
// breaker's open error.
//
// Breaker calls, open errors, open states and the options that tell a
// retry to stop on an error or to retry it are catalog rows
// (analyzers/internal/catalog). A function that calls through a breaker,
// directly or down any chain of calls, exports a BreakerFact, so a retry
// in another package (or another go vet process) around it is seen too.
//
// Per retry the layer states:
//
//   - Breakers: the breaker calls one attempt reaches (in closures run in
//     place, not in closures kept to run later), with the chain of
//     functions down to each;
//   - StopsOnOpen: the retry stops at once on the open error — an if or a
//     case that tests it (errors.Is with an OpenError row, a comparison
//     with an OpenState row, a call of an OpenCheck row or of the
//     CircuitOpen() bool protocol) and returns, breaks or marks the error
//     permanent; a classifier that returns the negated test; an option
//     whose row says the retry stops on the errors it names
//     (AbortOnErrors); runtime/retry around runtime/breaker; a retry that
//     goes round only on client-error responses (Retry.ClientErrors: the
//     open rejection has no response);
//   - RetriesOpen: the retry explicitly retries it (a test that continues,
//     a classifier that returns the test, HandleErrors(ErrOpen));
//   - Order: a failsafe-go executor that lists its retry policy before
//     its circuit breaker policy.
//
// Whether any of it is wrong, how to say so and how to fix it is the
// decoratororder check's (analyzers/decoratororder).
package breakers
