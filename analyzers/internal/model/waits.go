package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// The waits layer (package waits) seen from the model: the interpreter's
// questions about calls that wait, and the waits of a retry.

func (m *builder) importWait(fn *types.Func) *waits.WaitFact { return m.waitLayer.ImportedWait(fn) }

func (m *builder) isRandomCall(call *ast.CallExpr, fn *types.Func) bool {
	return m.waitLayer.IsRandomCall(call, fn)
}

func (m *builder) checksContext(fn *types.Func, call *ast.CallExpr) bool {
	return m.waitLayer.ChecksContext(fn, call)
}

func isCtxQuery(fn *types.Func) bool { return waits.IsCtxQuery(fn) }

func (in *interp) calls() waits.Calls {
	return waits.Calls{Info: in.info, Funcs: in.delayFuncs, Pure: in.pureWaits, Methods: in.waitMethods, ImportMay: in.importMay, Import: in.imports, Certain: in.certainWaits, Pkg: in.pkg, Closure: in.closureWait}
}

// waits reports whether stmt waits, each statement asked once per mode:
// a loop's statements are interpreted on every path of every pass.
func (in *interp) waits(stmt ast.Node) bool {
	k := waitKey{stmt, in.certainWaits}
	if w, ok := in.waitMemo[k]; ok {
		return w
	}
	if in.waitMemo == nil {
		in.waitMemo = map[waitKey]bool{}
	}
	w := in.calls().Waits(stmt)
	in.waitMemo[k] = w
	return w
}

type waitKey struct {
	n       ast.Node
	certain bool
}

func (in *interp) waitsHere(n ast.Node) bool           { return in.calls().WaitsHere(n) }
func (in *interp) isDelayCall(call *ast.CallExpr) bool { return in.calls().IsDelayCall(call) }
func (in *interp) isPureWait(call *ast.CallExpr) bool  { return in.calls().IsPureWait(call) }

// opMayWait reports whether call, an operation, is a method of an
// interface that an implementation waits in (a watcher's
// BlockUntilExists): the attempt that follows it may have waited.
func (in *interp) opMayWait(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(in.info, call)
	return fn != nil && analysisutil.IsInterfaceMethod(fn) && in.calls().MayWaitMethod(fn)
}

// findDelays lists the waits of a loop retry with a duration argument.
//
// A wait inside a loop nested in the retry that makes operations of its
// own paces that loop (a poll until a registration completes, a nested
// retry judged by itself), not the retry's attempts: it is not among the
// retry's delays.
func (m *builder) findDelays(r *Retry, fnBody *ast.BlockStmt) {
	info := m.pass.TypesInfo
	calls := waits.Calls{Info: info, Funcs: m.delayFuncs, Pure: m.pureWaits, Methods: m.waitLayer.WaitMethods, Import: m.importWait, Pkg: m.pass.Pkg, Closure: m.closureWaitsAt}
	own := r.Node
	if ls, ok := own.(*ast.LabeledStmt); ok {
		own = ls.Stmt
	}
	handedOn := timersHandedOn(info, r.Ops)
	// A recursive retry's attempt parameter is a counter it steps, not
	// a value its caller chooses (ShapeCounting); counting up to a
	// constant (`attempt < 5`), it bounds the attempts whatever the
	// caller starts from (at least 0).
	var counters map[types.Object]bool
	maxAttempts := r.Attempts
	if call, ok := r.Node.(*ast.CallExpr); ok && r.Kind == RecursiveRetry && r.CountParam >= 0 {
		if fn := analysisutil.Callee(info, call); fn != nil {
			if params := fn.Type().(*types.Signature).Params(); r.CountParam < params.Len() {
				counters = map[types.Object]bool{params.At(r.CountParam): true}
			}
		}
		if r.CountSign < 0 && maxAttempts == 0 {
			maxAttempts = r.CountOffset
		}
	}
	if counters == nil && len(r.stepped) > 0 {
		// reconnect(ctx, try+1) with no bound: try still counts.
		counters = map[types.Object]bool{}
		for _, p := range r.stepped {
			counters[p] = true
		}
	}
	// for i := range n: the key counts the attempts up from 0, as `i :=
	// 0; i < n; i++` does.
	if rs, ok := own.(*ast.RangeStmt); ok && counters == nil {
		id, isID := rs.Key.(*ast.Ident)
		t := info.TypeOf(rs.X)
		if isID && id.Name != "_" && t != nil {
			if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
				if obj := info.ObjectOf(id); obj != nil {
					counters = map[types.Object]bool{obj: true}
				}
			}
		}
	}
	for _, op := range r.Ops {
		var stack []ast.Node
		ast.Inspect(op, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			switch x := n.(type) {
			case *ast.FuncLit:
				stack = stack[:len(stack)-1]
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if n != own && n != op && anyIn([]ast.Node{n}, func(c ast.Node) bool {
					call, ok := c.(*ast.CallExpr)
					return ok && calls.IsOp(call)
				}) {
					stack = stack[:len(stack)-1]
					return false
				}
			case *ast.CallExpr:
				fn := analysisutil.Callee(info, x)
				litWaits := fn == nil && m.closureWaits(x)
				if fn == nil && !litWaits {
					return true
				}
				var dur ast.Expr
				helper := false
				switch {
				case litWaits:
					// pause := func(d time.Duration) {...}; pause(d): a
					// closure that waits, given one duration.
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
				case waits.TimerWait(fn):
					if len(x.Args) == 1 && !handedOn[x] {
						dur = x.Args[0]
					}
				case analysisutil.IsFunc(fn, catalog.ResilintRetry, "Sleep"):
					if len(x.Args) == 2 {
						dur = x.Args[1]
					}
				case m.delayFuncs[fn.Origin()] || m.importWait(fn.Origin()) != nil:
					// sleep(ctx, d): a function that waits (this package's,
					// or one with a WaitFact), given one duration, waits
					// that long; a duration that bounds its wait as a
					// timeout (g.Wait(ctx, time.Until(deadline))) is no
					// pause.
					helper = true
					timeouts := m.waitLayer.TimeoutParams(fn.Origin())
					for i, a := range x.Args {
						if slices.Contains(timeouts, i) {
							continue
						}
						if analysisutil.IsNamedType(info.TypeOf(a), "time", "Duration") {
							if dur != nil {
								dur = nil
								break
							}
							dur = a
						}
					}
				}
				own := false
				if dur == nil && helper && fn != nil && m.waitLayer.WaitFixed(fn.Origin()) {
					// c.backoff(attempt): a wait of its own with no
					// random part, given only counts and contexts.
					dur, own = x, true
				}
				if dur == nil && litWaits {
					// wait := func(n int) { time.Sleep(...) }; wait(n)
					if lit := m.waitingClosure(x); lit != nil {
						if sig, ok := info.TypeOf(lit).(*types.Signature); ok && m.waitLayer.FixedBody(sig, lit.Body) {
							dur, own = x, true
						}
					}
				}
				unjudged := false
				if dur == nil && helper && fn != nil && m.waitLayer.WaitBlind(fn.Origin()) {
					// nap(i): a wait of its own whose shape is not
					// known, but that watches no context.
					dur, own, unjudged = x, true, true
				}
				if dur == nil && litWaits {
					// retriable := func(err error) bool { time.Sleep(...);
					// ... }: a closure given more than counts, whose
					// wait's shape is not known; if its every wait is a
					// time.Sleep it watches no context all the same.
					if lit := m.waitingClosure(x); lit != nil && m.waitLayer.BlindBody(lit.Body) {
						dur, own, unjudged = x, true, true
					}
				}
				if dur != nil && r.Kind != RecursiveRetry && leavesAfter(stack) {
					// A wait after which the loop always returns
					// (pacing the work that follows a success) is not
					// between two attempts. (A recursive retry's
					// return may hold its next attempt.)
					dur = nil
				}
				if dur != nil {
					d := &waits.Delay{Call: x, Dur: dur, Own: own}
					switch {
					case unjudged:
						d.Shape = waits.DelayShape{Jitter: waits.JitterUnknown}
					case own:
						d.Shape = waits.DelayShape{Jitter: waits.JitterNone}
					default:
						d.Shape = m.waitLayer.ShapeCounting(dur, fnBody, counters)
					}
					if helper && fn != nil && m.waitLayer.WaitJitters(fn.Origin()) && d.Shape.Jitter == waits.JitterNone {
						// jsleep(d) adds a random part of its own: how
						// random the wait is, is the helper's business.
						d.Shape.Jitter = waits.JitterUnknown
					}
					if d.Shape.Exponential && !d.Shape.Capped && maxAttempts > 0 && maxAttempts <= waits.MaxGrowthAttempts {
						// 100ms<<attempt in three attempts never exceeds
						// 400ms: the attempt bound is the cap.
						d.Shape.Capped = true
					}
					// Whether a helper watches a context is its own
					// business, unless its every wait is a time.Sleep
					// (WaitFact.Blind): then it watches nothing.
					blind := false
					if helper {
						if fn != nil {
							blind = m.waitLayer.WaitBlind(fn.Origin())
						} else if lit := m.waitingClosure(x); lit != nil {
							blind = m.waitLayer.BlindBody(lit.Body)
						}
					}
					d.Cancellable = helper && !blind || analysisutil.IsFunc(fn, catalog.ResilintRetry, "Sleep") ||
						fn != nil && waits.TimeFunc(fn) != "Sleep" && !helper && m.waitLayer.InSelectWithDone(x, op) ||
						m.waitLayer.UnderNeverDone(x, fnBody)
					r.Delays = append(r.Delays, d)
				}
			}
			return true
		})
	}
}

// timersHandedOn returns the calls in ops that make a timer or a timer's
// channel (time.NewTimer, NewTicker, After) which is a timeout, not a
// wait between attempts:
//
//   - handed to another call, itself or through the variable it is kept
//     in (`t := time.NewTimer(c.ConnectTimeout); resp, err =
//     c.doTimeout(t, req)`): the callee races it against its work;
//   - kept in a variable that is only received from in select cases that
//     return, and stopped (`giveUp := time.NewTimer(d)` made for a whole
//     round of attempts, `case <-giveUp.C: return resp, err`): a
//     deadline, after which no attempt follows.
//
// One pass over ops, and one over the uses of the kept variables.
func timersHandedOn(info *types.Info, ops []ast.Node) map[*ast.CallExpr]bool {
	makesTimer := func(e ast.Expr) (*ast.CallExpr, bool) {
		c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
		if !ok {
			return nil, false
		}
		fn := analysisutil.Callee(info, c)
		switch waits.TimeFunc(fn) {
		case "NewTimer", "NewTicker", "After":
			return c, true
		}
		return c, false
	}
	kept := map[types.Object]*ast.CallExpr{}
	var args []ast.Expr
	for _, op := range ops {
		ast.Inspect(op, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if len(x.Lhs) == len(x.Rhs) {
					for i, r := range x.Rhs {
						if c, ok := makesTimer(r); ok {
							if id, ok := x.Lhs[i].(*ast.Ident); ok {
								if obj := info.ObjectOf(id); obj != nil {
									kept[obj] = c
								}
							}
						}
					}
				}
			case *ast.CallExpr:
				args = append(args, x.Args...)
			}
			return true
		})
	}
	out := map[*ast.CallExpr]bool{}
	for _, a := range args {
		if c, ok := makesTimer(a); ok {
			out[c] = true
			continue
		}
		if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok {
			if c := kept[info.Uses[id]]; c != nil {
				out[c] = true
			}
		}
	}
	for obj := range deadlineTimers(info, ops, kept) {
		out[kept[obj]] = true
	}
	return out
}

// deadlineTimers returns the variables of kept (timers and timer
// channels) that ops only receive from in select cases whose bodies
// return, and otherwise only stop: deadlines, not waits.
func deadlineTimers(info *types.Info, ops []ast.Node, kept map[types.Object]*ast.CallExpr) map[types.Object]bool {
	if len(kept) == 0 {
		return nil
	}
	// timerOf gives the kept variable a receive takes from: t.C or t.
	timerOf := func(e ast.Expr) (*ast.Ident, bool) {
		e = analysisutil.Unparen(e)
		if sel, ok := e.(*ast.SelectorExpr); ok {
			// t.C: the channel field of a *time.Timer or *time.Ticker
			f, isField := info.ObjectOf(sel.Sel).(*types.Var)
			if !isField || !f.IsField() || f.Pkg() == nil || f.Pkg().Path() != "time" {
				return nil, false
			}
			e = analysisutil.Unparen(sel.X)
		}
		id, ok := e.(*ast.Ident)
		return id, ok && kept[info.Uses[id]] != nil
	}
	allowed := map[*ast.Ident]bool{} // uses that stop the timer or end the function on it
	received := map[types.Object]bool{}
	for _, op := range ops {
		ast.Inspect(op, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CommClause:
				from := analysisutil.CommRecv(x.Comm)
				if from == nil || len(x.Body) == 0 {
					break
				}
				if _, ret := x.Body[len(x.Body)-1].(*ast.ReturnStmt); !ret {
					break
				}
				if id, ok := timerOf(from); ok {
					allowed[id] = true
					received[info.Uses[id]] = true
				}
			case *ast.CallExpr:
				fn := analysisutil.Callee(info, x)
				stop := analysisutil.IsMethod(fn, "time", "Timer", "Stop") || analysisutil.IsMethod(fn, "time", "Ticker", "Stop")
				if sel, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr); ok && stop {
					if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok {
						allowed[id] = true
					}
				}
			}
			return true
		})
	}
	if len(received) == 0 {
		return nil
	}
	out := map[types.Object]bool{}
	for obj := range received {
		out[obj] = true
	}
	for _, op := range ops {
		ast.Inspect(op, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && out[info.Uses[id]] && !allowed[id] {
				delete(out, info.Uses[id]) // read, reset or handed on elsewhere
			}
			return true
		})
	}
	return out
}

// leavesAfter reports whether the node at the top of stack (a wait, with
// the nodes that enclose it in the retry's attempt) is followed by leaving
// the retry on every path: some enclosing block ends with a return and
// holds no continue or goto that could go round instead (an unlabeled
// continue of a loop inside the block stays inside it).
func leavesAfter(stack []ast.Node) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		b, ok := stack[i].(*ast.BlockStmt)
		if !ok || len(b.List) == 0 {
			continue
		}
		if _, ret := b.List[len(b.List)-1].(*ast.ReturnStmt); ret && !escapes(b) {
			return true
		}
	}
	return false
}

// escapes reports whether b holds a goto, a labeled continue, or an
// unlabeled continue outside any loop of b's own.
func escapes(b *ast.BlockStmt) bool {
	found := false
	var visit func(n ast.Node, inLoop bool)
	visit = func(n ast.Node, inLoop bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			if found || c == nil {
				return false
			}
			switch x := c.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt:
				if c != n {
					visit(x.Body, true)
					return false
				}
			case *ast.RangeStmt:
				if c != n {
					visit(x.Body, true)
					return false
				}
			case *ast.BranchStmt:
				switch {
				case x.Tok == token.GOTO, x.Tok == token.CONTINUE && (x.Label != nil || !inLoop):
					found = true
				}
			}
			return true
		})
	}
	visit(b, false)
	return found
}

// waitingClosure returns the closure call runs when it is held in a
// local variable that nothing assigns again and its body waits outside
// loops (BodyWaits); nil otherwise.
func (m *builder) waitingClosure(call *ast.CallExpr) *ast.FuncLit {
	info := m.pass.TypesInfo
	id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || !isLocal(v) || len(m.vals.Assigns[v]) != 1 {
		return nil
	}
	lit, ok := analysisutil.Unparen(m.vals.Assigns[v][0].Value).(*ast.FuncLit)
	if !ok || !m.waitLayer.BodyWaits(lit.Body) {
		return nil
	}
	return lit
}

// closureWaits reports whether call runs a waiting closure
// (waitingClosure) that draws nothing at random.
func (m *builder) closureWaits(call *ast.CallExpr) bool {
	lit := m.waitingClosure(call)
	if lit == nil {
		return false
	}
	info := m.pass.TypesInfo
	random := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if f := analysisutil.Callee(info, c); f != nil && m.waitLayer.IsRandomCall(c, f) {
				random = true
			}
		}
		return !random
	})
	return !random
}

// closureWaitsAt reports whether call runs a waiting closure, whatever it
// draws: one written here (waitingClosure), or one a wait maker made
// (waits.MakerFact: `wait := strategy.Linear(d)`, then `wait(n)`), held in
// a local variable that nothing assigns again. For the interpreter, a
// wait happened.
func (m *builder) closureWaitsAt(call *ast.CallExpr) bool {
	if m.waitingClosure(call) != nil {
		return true
	}
	id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !isLocal(v) || len(m.vals.Assigns[v]) != 1 {
		return false
	}
	made, ok := analysisutil.Unparen(m.vals.Assigns[v][0].Value).(*ast.CallExpr)
	return ok && m.waitLayer.IsMaker(analysisutil.Callee(m.pass.TypesInfo, made))
}
