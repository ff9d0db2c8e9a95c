// Package waits is the model's layer of waits and delays: an analysis
// pass (resilwaits) that reports nothing, built on value provenance
// (package provenance). It finds, by what their bodies do and never by
// their names, the package's functions that
//
//   - wait on every call, outside any loop of their own (a sleep, a timer
//     or ctx.Done() receive, a call of another such function): WaitFact,
//     Pure when they do nothing fallible but wait;
//   - return a value drawn from math/rand, math/rand/v2, crypto/rand or
//     another such function: RandomFact;
//   - check the context they are given (ctx.Err(), ctx.Done(),
//     ctx.Deadline(), or hand it to another such function): CtxCheckFact;
//   - cap an input: their result is never above a parameter or a
//     constant, and some return lets an input through a comparison with
//     that bound (`if d > max { return max }; return d`): CapFact;
//
// and exports the facts, so a package's own sleep, jitter, halt and cap
// helpers count wherever they are called, in other packages (and other
// go vet processes) too.
//
// Its Result answers the model's questions about the waits of a retry:
// which calls wait (Calls: the interpreter asks it statement by
// statement, and which calls are fallible operations rather than waits),
// the shape of a delay's duration (Shape: jitter, exponential growth,
// caps; Delay, DelayShape), whether a wait ends when its context is
// cancelled (InSelectWithDone, UnderNeverDone), whether a call draws a
// random value or checks a context. Which waits belong to which retry is
// the model's (analyzers/internal/model); whether a wait is wrong is the
// backoff and timeoutchain checks'.
//
// The standard library is opaque to the model: no fact is computed there.
// docs/model.md describes every layer.
package waits
