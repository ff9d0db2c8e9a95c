// Package timeouts is the model's layer of timeouts and deadlines: an
// analysis pass (resiltimeouts) that reports nothing, built on the model
// (analyzers/internal/model: the retries, their waits and sends) and on
// value provenance. It exports a TimeoutFact for every function that sets
// a constant timeout on the context it is given (directly or through the
// functions it passes it to), a CarrierFact for every function that only
// puts the context it is given into the request it returns (carriers.go),
// and states in its Result (Timeouts):
//
//   - inner timeouts set on a context whose deadline is known to be no
//     longer (context.WithTimeout, a function with a TimeoutFact, an
//     http.Client's Timeout on a request with such a context);
//   - contexts dropped (context.Background() or TODO() where a context is
//     in scope), unless passed to a logger, run under a lifetime of their
//     own, in code that outlives the request, or put into a request that
//     is only dumped and never sent;
//   - for each retry: its waits that do not end when its context is
//     cancelled, attempts that cannot fit in its deadline, and net/http
//     sends with neither a client timeout nor a request deadline.
//
// What is wrong with them, the wording and the fixes are the timeoutchain
// check's (analyzers/timeoutchain). The standard library is opaque: no
// fact, and a nil Result. docs/model.md describes every layer.
package timeouts
