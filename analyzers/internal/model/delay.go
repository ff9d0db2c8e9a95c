package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// waits reports whether executing the simple parts of stmt waits: a
// sleep, a receive from a timer or ticker channel, a call of a function
// that sleeps. Bodies of compound statements are not looked at (the
// interpreter executes them statement by statement).
func (in *interp) waits(stmt ast.Node) bool {
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
	return anyIn(nodes, in.waitsHere)
}

// waitsHere reports whether n itself waits: a receive from a timer or
// ctx.Done(), or a call that sleeps.
func (in *interp) waitsHere(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.UnaryExpr:
		return x.Op == token.ARROW && (isTimeChan(in.info.TypeOf(x.X)) || in.isDone(x.X))
	case *ast.CallExpr:
		return in.isDelayCall(x) || !in.certainWaits && in.mayWait(x)
	}
	return false
}

// mayWait reports whether call is a call of a function value (a parameter,
// a field) that is given a time.Duration: a sleeper handed in by the
// caller (`sp(ctx, d)`) may wait, and the model cannot tell that it does
// not.
func (in *interp) mayWait(call *ast.CallExpr) bool {
	if analysisutil.Callee(in.info, call) != nil {
		return false
	}
	if tv, ok := in.info.Types[call.Fun]; !ok || tv.IsType() {
		return false
	}
	for _, a := range call.Args {
		if analysisutil.IsNamedType(in.info.TypeOf(a), "time", "Duration") {
			return true
		}
	}
	return false
}

// isDone reports whether e is ctx.Done(): a receive from it waits until
// the context ends.
func (in *interp) isDone(e ast.Expr) bool { return isDoneCall(in.info, e) }

// isDoneCall reports whether e is a call of a context's Done method.
func isDoneCall(info *types.Info, e ast.Expr) bool {
	c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	return ok && analysisutil.IsMethod(analysisutil.Callee(info, c), "context", "Context", "Done")
}

func isTimeChan(t types.Type) bool {
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	return ok && analysisutil.IsNamedType(ch.Elem(), "time", "Time")
}

// Delay is a wait between the attempts of a hand-written retry.
type Delay struct {
	Call  *ast.CallExpr // time.Sleep(d), time.After(d), time.NewTimer(d), t.Reset(d), retry.Sleep(ctx, d)
	Dur   ast.Expr      // the duration argument
	Shape DelayShape
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
}

var randPaths = map[string]bool{"math/rand": true, "math/rand/v2": true, "crypto/rand": true}

// findDelays lists the waits of a loop retry with a duration argument.
func (m *builder) findDelays(r *Retry, fnBody *ast.BlockStmt) {
	info := m.pass.TypesInfo
	for _, op := range r.Ops {
		ast.Inspect(op, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				fn := analysisutil.Callee(info, x)
				if fn == nil {
					return true
				}
				var dur ast.Expr
				helper := false
				switch {
				case analysisutil.IsFunc(fn, "time", "Sleep"), analysisutil.IsFunc(fn, "time", "After"),
					analysisutil.IsFunc(fn, "time", "NewTimer"), analysisutil.IsFunc(fn, "time", "Tick"),
					analysisutil.IsFunc(fn, "time", "NewTicker"), analysisutil.IsMethod(fn, "time", "Timer", "Reset"),
					analysisutil.IsMethod(fn, "time", "Ticker", "Reset"):
					if len(x.Args) == 1 {
						dur = x.Args[0]
					}
				case analysisutil.IsFunc(fn, catalog.ResilintRetry, "Sleep"):
					if len(x.Args) == 2 {
						dur = x.Args[1]
					}
				case m.delayFuncs[fn.Origin()] || m.importWait(fn.Origin()) != nil:
					// sleep(ctx, d): a function that waits (this package's,
					// or one with a WaitFact), given one duration, waits
					// that long.
					helper = true
					for _, a := range x.Args {
						if analysisutil.IsNamedType(info.TypeOf(a), "time", "Duration") {
							if dur != nil {
								dur = nil
								break
							}
							dur = a
						}
					}
				}
				if dur != nil {
					d := &Delay{Call: x, Dur: dur, Shape: m.shape(dur, fnBody)}
					if d.Shape.Exponential && !d.Shape.Capped && r.Attempts > 0 && r.Attempts <= maxGrowthAttempts {
						// 100ms<<attempt in three attempts never exceeds
						// 400ms: the attempt bound is the cap.
						d.Shape.Capped = true
					}
					d.Cancellable = analysisutil.IsFunc(fn, catalog.ResilintRetry, "Sleep") || !analysisutil.IsFunc(fn, "time", "Sleep") && m.inSelectWithDone(x, op) ||
						m.underNeverDone(x, fnBody) || helper // whether a helper watches a context is its own business
					r.Delays = append(r.Delays, d)
				}
			}
			return true
		})
	}
}
