package waits

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// waits reports whether executing the simple parts of stmt waits: a
// sleep, a receive from a timer or ticker channel, a call of a function
// that sleeps. Bodies of compound statements are not looked at (the
// interpreter executes them statement by statement).
func (in Calls) Waits(stmt ast.Node) bool {
	var nodes []ast.Node
	switch st := stmt.(type) {
	case *ast.IfStmt:
		nodes = []ast.Node{st.Cond}
	case *ast.SwitchStmt:
		if st.Tag != nil {
			nodes = []ast.Node{st.Tag}
		}
	case *ast.ForStmt, *ast.RangeStmt, *ast.SelectStmt, *ast.TypeSwitchStmt, *ast.BlockStmt, *ast.LabeledStmt:
		return false
	default:
		nodes = []ast.Node{stmt}
	}
	return analysisutil.AnyIn(nodes, in.WaitsHere)
}

// WaitsHere reports whether n itself waits: a receive from a timer or
// ctx.Done(), a call that sleeps, or code that reads the process's
// standard input or hands it on (ReadsTerminal).
func (in Calls) WaitsHere(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.UnaryExpr:
		return x.Op == token.ARROW && (IsTimeChan(in.Info.TypeOf(x.X)) || in.isDone(x.X))
	case *ast.CallExpr:
		return in.IsDelayCall(x) || in.Closure != nil && in.Closure(x) || !in.Certain && in.mayWait(x) || ReadsTerminal(in.Info, x)
	case *ast.AssignStmt, *ast.KeyValueExpr, *ast.CompositeLit:
		return ReadsTerminal(in.Info, x)
	}
	return false
}

// mayWait reports whether call is a call of a function value or an
// interface method that is given a time.Duration (a sleeper handed in by
// the caller: `sp(ctx, d)`, `p.Pause(d)`)
// or is held in a field (a hook: `c.onRetry(n, err)`), or of a function in
// Result.WaitMethods, or a method called on what a call of the package's
// or another module's given a time.Duration returned (a timer scheduled
// with an engine and awaited through its future: `sleepFor(env,
// d).Await(env)`): each may wait, and the model cannot tell that it does
// not.
func (in Calls) mayWait(call *ast.CallExpr) bool {
	if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if inner, ok := analysisutil.Unparen(sel.X).(*ast.CallExpr); ok && in.givenDuration(inner) {
			if fn := analysisutil.Callee(in.Info, inner); fn == nil || !analysisutil.IsStd(analysisutil.PkgPath(fn)) {
				return true
			}
		}
	}
	if fn := analysisutil.Callee(in.Info, call); fn != nil {
		// An interface method given a duration (`p.Pause(d)`) may be a
		// sleeper whose implementation the model cannot see, as a
		// function value given one may.
		return in.MayWaitMethod(fn) || analysisutil.IsInterfaceMethod(fn) && in.givenDuration(call)
	}
	if tv, ok := in.Info.Types[call.Fun]; !ok || tv.IsType() {
		return false
	}
	return FieldFunc(in.Info, call.Fun) && !isTest(in.Info, call) || in.givenDuration(call)
}

// isTest reports whether call, of a function value, answers with one
// bool and nothing else: a test (a retry predicate held in a field, `if
// w.retryOn(resp, err)`), not a hook run for its effects between
// attempts, which may be a wait. One given the error and a number (the
// attempt's: `o.RetryBegin(err, i)`) is the caller's retry policy, which
// decides when to go on as well as whether, and may pause first: no
// test.
func isTest(info *types.Info, call *ast.CallExpr) bool {
	sig, ok := info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok || sig.Results().Len() != 1 || !analysisutil.IsBool(sig.Results().At(0).Type()) {
		return false
	}
	givenErr, givenNumber := false, false
	for _, a := range call.Args {
		t := info.TypeOf(a)
		if analysisutil.IsErrorType(t) {
			givenErr = true
		}
		if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			givenNumber = true
		}
	}
	return !givenErr || !givenNumber
}

// MayWaitMethod reports whether fn is a method that may wait: one of
// Methods, or an interface method of another package with a
// MayWaitFact.
func (in Calls) MayWaitMethod(fn *types.Func) bool {
	return fn != nil && (in.Methods[fn] || in.ImportMay != nil && in.ImportMay(fn))
}

// givenDuration reports whether one of call's arguments is a
// time.Duration.
func (in Calls) givenDuration(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if analysisutil.IsNamedType(in.Info.TypeOf(a), "time", "Duration") {
			return true
		}
	}
	return false
}

// isDone reports whether e is ctx.Done(): a receive from it waits until
// the context ends.
func (in Calls) isDone(e ast.Expr) bool { return isDoneCall(in.Info, e) }

// isDoneCall reports whether e is a call of a context's Done method.
func isDoneCall(info *types.Info, e ast.Expr) bool {
	c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	return ok && analysisutil.IsMethod(analysisutil.Callee(info, c), "context", "Context", "Done")
}

// IsTimeChan reports whether t is a channel of time.Time (a timer's, a
// ticker's, time.After's): a receive from it waits.
func IsTimeChan(t types.Type) bool {
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	return ok && analysisutil.IsNamedType(ch.Elem(), "time", "Time")
}

// Delay is a wait between the attempts of a hand-written retry.
type Delay struct {
	Call  *ast.CallExpr // time.Sleep(d), time.After(d), time.NewTimer(d), t.Reset(d), retry.Sleep(ctx, d)
	Dur   ast.Expr      // the duration argument; Call itself when Own
	Shape DelayShape
	// Own: Call is a wait function that waits a delay of its own, given
	// no duration: with no random part (WaitFact.Fixed:
	// `c.backoff(attempt)`, Shape JitterNone), or of a shape not known
	// but watching no context (WaitFact.Blind, JitterUnknown). There is
	// no duration here to rewrite.
	Own bool
	// Cancellable: the wait ends when the context is cancelled
	// (runtime/retry's Sleep, or a select with a ctx.Done() case).
	Cancellable bool
}

// Jitter says how random a delay is.
type Jitter int

const (
	JitterUnknown Jitter = iota // a helper the model cannot see into
	JitterNone                  // no random component
	JitterEqual                 // a fixed part plus a random part
	JitterFull                  // random over the whole range
	JitterSeeded                // random, but from a constant-seeded source
)

// DelayShape is what the model makes of a delay's duration.
type DelayShape struct {
	Jitter      Jitter
	Exponential bool      // grows exponentially with the attempts (shift, doubling, math.Pow)
	Capped      bool      // bounded by min(), math.Min, an if-cap, or a small attempt bound
	SeedPos     token.Pos // the constant seed, for JitterSeeded
	// Next is the catalog's NextDelay row when the delay is a backoff
	// value's next wait (b.Duration()): Exponential and Capped come
	// from it, and are known even when the jitter is not (the value
	// came from a parameter). Lib, when the jitter is none, says where
	// the value leaves it out.
	Next     *catalog.Row
	NextRecv ast.Expr // the value Next is called on
	Lib      *LibDelay
}

var randPaths = map[string]bool{"math/rand": true, "math/rand/v2": true, "crypto/rand": true}

// FieldFunc reports whether fun, the function of a call, is a function
// value held in a struct field (`c.hook`, `h.Fn`, `l.list[i]`): a hook set
// somewhere else, which may do anything.
func FieldFunc(info *types.Info, fun ast.Expr) bool {
	for {
		switch x := analysisutil.Unparen(fun).(type) {
		case *ast.IndexExpr:
			fun = x.X
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			return sel != nil && sel.Kind() == types.FieldVal
		default:
			return false
		}
	}
}

// NoWait reports whether call is a time.Sleep of a constant under a
// microsecond: time.Sleep(10) sleeps ten nanoseconds (an untyped
// constant is nanoseconds), no wait between two attempts.
func NoWait(info *types.Info, call *ast.CallExpr) bool {
	if !analysisutil.IsFunc(analysisutil.Callee(info, call), "time", "Sleep") || len(call.Args) != 1 {
		return false
	}
	tv, ok := info.Types[call.Args[0]]
	if !ok || tv.Value == nil {
		return false
	}
	n, exact := constant.Int64Val(constant.ToInt(tv.Value))
	return exact && n < int64(time.Microsecond)
}

// TimerWait reports whether fn waits a duration it is given, or sets a
// timer or ticker to one: a waiting function of the time package
// (TimeFunc), or a Timer's or Ticker's Reset.
func TimerWait(fn *types.Func) bool {
	return TimeFunc(fn) != "" || analysisutil.IsMethod(fn, "time", "Timer", "Reset") || analysisutil.IsMethod(fn, "time", "Ticker", "Reset")
}

// TimeFunc returns the name of the time package's waiting function fn is
// or does: time.Sleep, After, NewTimer, Tick or NewTicker themselves, or
// a method of an injected clock of the same name (a catalog ClockMethod
// row: `c.clock.After(d)`). "" for any other.
func TimeFunc(fn *types.Func) string {
	if fn == nil {
		return ""
	}
	switch fn.Name() {
	case "Sleep", "After", "NewTimer", "Tick", "NewTicker":
	default:
		return ""
	}
	if analysisutil.IsFunc(fn, "time", fn.Name()) {
		return fn.Name()
	}
	if row := catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil && row.Role == catalog.ClockMethod {
		return fn.Name()
	}
	return ""
}
