// Package breaker is a circuit breaker: it stops calling a dependency that is
// failing or slow, fails fast while the dependency recovers, and probes it with a
// bounded number of trial calls before letting traffic through again.
//
// # States
//
// A [Breaker] is in one of three states:
//
//   - [StateClosed]: calls go through; their outcomes are recorded in a sliding
//     window (the last N calls, or the last T split into buckets). Once the window
//     holds at least [Config.MinimumCalls] outcomes and the failure rate or the
//     slow-call rate reaches its threshold, the circuit opens.
//   - [StateOpen]: calls fail at once with [ErrOpen] and never reach the operation.
//     After the open wait the circuit moves to half-open. The wait starts at
//     [Config.OpenWait], doubles every time the circuit reopens without having
//     been stably closed in between, is capped at [Config.MaxOpenWait], and is
//     shortened by a random jitter so that many instances do not probe the
//     dependency in step.
//   - [StateHalfOpen]: up to [Config.HalfOpenTrials] trial calls go through (the
//     others fail with [ErrTooManyTrials]), and never more than that many run
//     at once, counting the trials of earlier rounds still running. The circuit closes as soon as
//     [Config.HalfOpenSuccesses] trials have succeeded within
//     [Config.HalfOpenMaxLatency], and reopens as soon as that has become
//     impossible.
//
// # Generations
//
// Every state change starts a new generation. A call records its outcome in the
// generation it was admitted in, exactly once; if the breaker has moved on in the
// meantime, the outcome is dropped: a slow call admitted while closed cannot reopen
// a circuit that has since gone through open and half-open, and a call admitted in
// one half-open round does not count as a trial of the next.
//
// # What counts as a failure
//
// [Config.Classify] decides; [DefaultClassify] counts server errors (HTTP 5xx,
// 408, 429), timeouts and connection failures as failures, treats client errors
// (other HTTP 4xx) as successes — the dependency answered — and ignores calls
// cancelled by the caller. A call that panics is a failure.
//
// # Recognizing a rejection without importing this package
//
// [ErrOpen] and [ErrTooManyTrials] implement
//
//	interface{ CircuitOpen() bool }
//
// returning true, so that other packages (runtime/retry among them) can stop
// retrying at once on a rejected call without importing breaker. Within this
// module, errors.Is(err, ErrOpen) reports true for both.
//
// # Cost
//
// In the closed state a call costs a few atomic operations and no allocation;
// no lock is taken except to change state. An open circuit rejects a call in a
// few tens of nanoseconds.
package breaker
