package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// RetryKind says how a retry is written.
type RetryKind int

const (
	LoopRetry      RetryKind = iota + 1 // a hand-written for or range loop
	GotoRetry                           // a hand-written loop made of a label and goto
	LibraryRetry                        // a retry library call running an operation
	ClientRetry                         // a client send that retries by itself
	RecursiveRetry                      // a function that calls itself again after a failure
)

// Retry is one retry site of the package.
type Retry struct {
	Kind     RetryKind
	Node     ast.Node     // *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt or *ast.CallExpr
	Label    string       // a hand-written loop's label, if it has one
	Pos, End token.Pos    // the range to report: the loop keyword, the label, or the called function
	Row      *catalog.Row // the catalog row, for library and client retries
	// Implements is the catalog row of the function whose body holds
	// the retry, when that function is itself a catalogued retry or
	// retrying send (a library analyzed by itself): the row describes it
	// to its callers.
	Implements *catalog.Row
	// Attempts is the worst-case number of attempts this retry makes by
	// itself; 0 when it has no constant bound.
	Attempts int64
	// Ops are the syntax of one attempt: the loop body, the closure given
	// to the library. OpFuncs are operations given as named functions or
	// method values.
	Ops     []ast.Node
	OpFuncs []*types.Func
	// Inner lists what one attempt reaches that retries again, at the top
	// level (a reach's own nesting is inside it).
	Inner []*Reach
	// Amp is the worst-case number of downstream calls one execution of
	// this retry makes: Attempts × the calls one attempt makes (at least
	// one). 0 when unknown.
	Amp int64
	// Through, for a net/http send, is the StandardClient call that made
	// the retrying client.
	Through string

	// For hand-written loops: the waits between attempts with a
	// duration, whether some attempt follows the previous one with no
	// wait at all, and whether the loop checks a context or the clock
	// (a bound by time).
	Delays      []*waits.Delay
	Immediate   bool
	TimeBounded bool
	// SelectBreak, for a hand-written loop that is not bounded by time:
	// a select case of the loop that receives from a context's Done
	// (SelectDone) and ends with a break without a label, after nothing
	// but calls (`case <-ctx.Done(): break`). The break leaves the select,
	// not the loop: once the context is done the loop goes on.
	SelectBreak *ast.BranchStmt
	SelectDone  *ast.CallExpr
	// ImmediateIdentified: every attempt that follows the previous one
	// with no wait does so after a failure the code identified first (an
	// error value, an error type, its text, or the operation's own
	// verdict bool): a resend chosen for that one failure, such as a
	// stale pooled connection. Identified: every path that goes round
	// after a failure identified it so.
	ImmediateIdentified bool
	Identified          bool
	// ClientErrors: every path that goes round after a failure knows the
	// response's status to be a client error (4xx but 408, 425 and 429:
	// `if resp.StatusCode != http.StatusUnauthorized { return }`), a
	// refusal of this request that no outage causes. Such a retry makes
	// one attempt while its dependency is down: it is not counted as an
	// inner retry (Inner, Amp, RetryFact).
	ClientErrors bool
	// Specific: every path that goes round after a failure knows it to
	// be a client error, or compared it with an error value that names
	// one failure of no outage kind (err == ErrConflict,
	// errors.Is(err, io.ErrNoProgress); not the catalog's Outage rows,
	// such as io.ErrUnexpectedEOF or context.DeadlineExceeded): a failure
	// of this request's own state, which clients do not reach together
	// when a dependency goes down. For a library retry: its operation
	// ends the retry on every failure of its work and otherwise fails
	// only with errors of its own making (ownFailuresOnly).
	Specific bool
	// NotDone: every path that goes round after a failure knows the
	// server did not act on the request: it refused it with a 4xx (a
	// client error, or 408, 425, 429: refused before anything ran), or
	// the request never reached it (a
	// connection refused: errors.Is(err, syscall.ECONNREFUSED), the
	// catalog's Unsent rows). Resending it cannot do it twice.
	NotDone bool
	// CancelProof: every path that goes round after a failure knows it
	// to be one an attempt cancelled with its context cannot have: a
	// client-error response (ClientErrors), an error value of no outage
	// kind (err == ErrConflict), or an error of a concrete type that
	// wraps no other error (errors.As into a *pgconn.PgError; not a
	// *url.Error, which carries the context's error).
	CancelProof bool
	// BlindWaits, for a call of a retry helper of a package
	// (RetryHelperFact): the helper takes no context and waits between
	// its attempts without watching one.
	BlindWaits bool
	// Probe: for a hand-written loop, every operation of an attempt opens
	// something (a connection) that the attempt closes and puts to no
	// other use: the loop only learns when the dependency answers again,
	// and leaves no work behind (probes.go).
	Probe bool
	// Draws: for a hand-written loop, every operation of a pass is given
	// an identifier drawn anew at random in that pass (waits.FreshIDFact:
	// a device ID inserted until one is free): each attempt asks for
	// something new, a search for a free key rather than a resend of one
	// request (draws.go). What else the attempt sends is sent again.
	Draws bool
	// CountBounded: the loop compares a counter it advances with a limit,
	// even one that is not a constant (a configured number of attempts),
	// gives the counter to a policy that answers whether to go on, or
	// asks a policy the model cannot see into (an interface method, a
	// function value) given something other than the error (the request,
	// which may carry its attempts), or asks a budget of the package (a
	// method that steps and compares a field of its receiver): a bound
	// unknown, not absent.
	CountBounded bool
	// Fallback, for a recursive retry: every self-call runs under a test
	// of state that outlives the call (a field, a package variable) that
	// its path falsified first (`if m.token != "" { m.token = ""; return
	// m.fetch(ctx) }`): one more attempt, asked differently, and no later
	// call recurses until something sets that state again. For a loop:
	// every way round runs under a test of a variable of the function
	// that its path falsified first, and no write re-arms those tests in
	// a cycle (ladders.go): a ladder of fallbacks (verified TLS, then
	// unverified, then plaintext), bounded by its rungs.
	Fallback bool
	// For a recursive retry whose bound is a parameter it counts with:
	// the parameter's index (-1: none), and how a constant argument n
	// gives the attempts (Sign*n + Offset).
	CountParam  int
	CountSign   int
	CountOffset int64

	ampState uint8 // 0 new, 1 computing, 2 done
	// stepped, for a recursive retry: the parameters every self-call
	// passes on stepped by a constant (attempt counters, bounded or not).
	stepped []*types.Var
	// immediateOps, for a loop: the operations that started a pass at
	// once after a failure of no identified kind; immediateKnown: some
	// also did after an identified one (spacedRounds).
	immediateOps   []*ast.CallExpr
	immediateKnown bool
}

// Describe names the retry for messages: "retry loop", "backoff.Retry".
func (r *Retry) Describe() string {
	switch r.Kind {
	case LoopRetry:
		return "retry loop"
	case GotoRetry:
		return "goto retry loop"
	case RecursiveRetry:
		return "recursive retry"
	}
	if r.Through != "" {
		return r.Row.Lib + " of a retryablehttp StandardClient"
	}
	return r.Row.Lib
}

// Disable says how to switch the retry off when it is a library's.
func (r *Retry) Disable() string {
	if r.Row != nil {
		return r.Row.Disable
	}
	return ""
}

// Reach is something one attempt of a retry (or a function body) reaches
// that retries: an inner retry written in this package, or a call of a
// function that retries.
type Reach struct {
	Pos    token.Pos   // the inner retry, or the call
	Retry  *Retry      // set for an inner retry site
	Callee *types.Func // set for a call of a retrying function
	Fact   *RetryFact  // the callee's summary
}

// Amp is the worst-case downstream calls the reach makes (0: unknown).
func (r *Reach) Amp() int64 {
	if r.Retry != nil {
		return r.Retry.Amp
	}
	return r.Fact.Calls
}

// Result is the model of one package.
type Result struct {
	// Retries lists every retry site of the package in source order.
	Retries []*Retry
	// Resumes lists the loops that go on after a success (watches,
	// consumers) and wait after a failure before calling the same
	// operations again (resume.go): their Delays are retry delays; they
	// have no bound by design, and are no retry sites.
	Resumes []*Retry
	// Failovers lists the loops shaped like a retry (a failure goes
	// round, a success leaves) whose every pass sends something new — the
	// next node or mirror, a fresh request (iterates.go) — with their
	// waits: no retry of one request, but their waits still stand
	// between a failure and the next call.
	Failovers []*Retry
	// Funcs holds the summary of each function of the package that
	// retries (the fact it exports).
	Funcs map[*types.Func]*RetryFact
	// SitePos gives, for a function of this package that retries, the
	// position of the retry its fact describes when that retry is in this
	// package too (for related locations).
	SitePos map[*types.Func]token.Pos
	// DelayArgs lists the calls of functions whose retry waits the
	// duration they are given (DelayParamFact), where that duration is
	// known: the argument is the retry's delay (delayparams.go).
	DelayArgs []*DelayArg
	// CountedCalls lists the calls that give a retry bounded by its
	// caller's argument (a recursion counting a parameter, RetryFact's
	// AttemptsParam) a constant count, when each of its attempts reaches
	// retries of its own: there the nesting's numbers are known
	// (counted.go).
	CountedCalls []*CountedCall

	b     *builder // for the layers built on the model (provenance.go)
	impls []implementation
	mu    sync.Mutex
}
