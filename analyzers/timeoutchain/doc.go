// Package timeoutchain defines an Analyzer that reports timeouts that do
// not fit inside the deadline they run under, and contexts that drop it.
//
// # Analyzer timeoutchain
//
// timeoutchain: report timeouts longer than their deadline, dropped contexts, and waits that ignore cancellation
//
// A deadline is only useful if every hop below it respects it. When the
// caller gives up after 4 s but the service it called starts the
// downstream call with context.Background(), the work goes on after nobody
// is waiting for it any more: zombie work that holds connections, threads
// and database locks, and, under load, keeps a struggling service busy
// with requests whose callers are gone. A timeout of 5 s set under that
// 4 s deadline never applies: what was sized to it fails with the
// caller's deadline instead.
//
// The check reports:
//
//   - inner-timeout: a timeout (context.WithTimeout, WithDeadline with
//     time.Now().Add) that is longer than the deadline the context
//     already carries, set in the same function or by a caller through any
//     chain of calls, in any package (facts: "sets a timeout of T on the
//     context it receives"); the message gives both durations and where the
//     outer one was set;
//   - dropped-context: context.Background() or context.TODO() in a function
//     that has a context.Context (or an *http.Request, whose Context carries
//     the caller's cancellation); not in main, init, tests, or goroutines
//     started to outlive the request (use context.WithoutCancel for work
//     that must finish after the response), nor when it is given a
//     lifetime of its own: a deadline (WithTimeout, WithDeadline, also
//     one the called function sets before any other use), or a
//     WithCancel whose cancel function escapes (stored, returned, handed
//     on, called from another goroutine). The fix uses the context in
//     scope;
//   - sleep-ignores-cancel: in a retry, time.Sleep or a bare <-time.After
//     with no ctx.Done() alternative, also through a helper or closure
//     whose every wait is one; the waits of one retry are one
//     finding, the others related. The fix uses runtime/retry's Sleep.
//     Also a library retry bound to no context (backoff v4's Retry
//     without WithContext, retry-go's Do without Context) where one is
//     in scope; the fix binds it;
//   - attempts-exceed-deadline: per-attempt timeout × attempts (+ the waits,
//     when known) longer than the deadline the retry runs under;
//   - no-timeout: an outbound net/http client with no Timeout used in a
//     retry for a request with no context deadline either.
//
// Durations are constant-folded from time.Duration arithmetic, named
// constants and package-level variables with constant initializers;
// unknown durations are not guessed.
package timeoutchain
