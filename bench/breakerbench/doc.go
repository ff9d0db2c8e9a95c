// Package breakerbench holds side-by-side benchmarks of resilint's circuit
// breaker and bulkhead against sony/gobreaker v2, failsafe-go and
// golang.org/x/sync/semaphore. See docs/runtime/breaker.md and
// docs/runtime/bulkhead.md for the results and the commands that produce them.
package breakerbench
