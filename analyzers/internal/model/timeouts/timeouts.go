package timeouts

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
	"github.com/resilint/resilint/analyzers/internal/model/sends"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// TimeoutFact is exported for functions that set a timeout on the context
// they receive (directly or through the functions they pass it to).
type TimeoutFact struct {
	Param   int   // index of the context parameter
	Timeout int64 // the longest constant timeout set on it, in nanoseconds
	Site    string
}

func (*TimeoutFact) AFact() {}

func (f *TimeoutFact) String() string {
	return fmt.Sprintf("timeout(%d, %s)", f.Param, time.Duration(f.Timeout))
}

// Bound is a known limit on the time a context has left.
type Bound struct {
	D   time.Duration
	Pos token.Pos // where it was set
}

// TimeoutFinding is an inner timeout that does not fit in the deadline of
// the context it is set on.
type TimeoutFinding struct {
	Pos, End token.Pos
	Inner    time.Duration
	What     string // "context.WithTimeout", "pay.Charge sets a timeout (pay.go:12)", "http.Client Timeout"
	Outer    Bound
	// Via is the called function that sets the timeout on the context
	// it is given (its TimeoutFact), nil when the timeout is set here.
	Via *types.Func
}

// DroppedContext is a context.Background() or TODO() used where a
// context is in scope.
type DroppedContext struct {
	Call    *ast.CallExpr
	InScope string // the expression to use instead: "ctx", "r.Context()"
}

// CancelDelay is a retry's wait that ignores the context's cancellation.
type CancelDelay struct {
	Delay   *waits.Delay
	Retry   *model.Retry
	Ctx     string // the context in scope
	Stmt    ast.Stmt
	Returns bool // the enclosing function returns only an error
	// CheckedEachPass: the loop checks Ctx on every pass and leaves when
	// it is done (eachpass.go): after a cancellation at most the wait
	// under way finishes, and no attempt follows it. Pause: the wait is a
	// constant duration or a numeric field read as it is (a configured
	// poll interval), not one computed from the attempts or a response.
	CheckedEachPass, Pause bool
	// RefusedOnly: the loop goes round only on a response refused with a
	// client error (Retry.ClientErrors), or on other failures a
	// cancelled attempt cannot have (Retry.CancelProof), and an attempt
	// is given Ctx (refused.go): after a cancellation the next attempt
	// fails with the context's error, and the loop leaves.
	RefusedOnly bool
}

// AttemptFit is a retry whose attempts cannot fit in its deadline.
type AttemptFit struct {
	Retry      *model.Retry
	PerAttempt time.Duration
	Delays     time.Duration // known total of the waits between attempts
	Outer      Bound
}

// NoTimeout is a send in a retry whose client has no timeout and whose
// request has no deadline.
type NoTimeout struct {
	Send  *sends.Send
	Retry *model.Retry
}

// Timeouts is what the model knows about the package's deadlines.
type Timeouts struct {
	Inner   []*TimeoutFinding
	Dropped []*DroppedContext
	// ContextLess are the calls that take no context where one is in
	// scope, and a variant of theirs takes one.
	ContextLess []*ContextLess
	Discarded   []*DiscardedCarrier
	Sleeps      []*CancelDelay
	Unbound     []*UnboundRetry
	Fits        []*AttemptFit
	NoTimeout   []*NoTimeout
}

func (m *layer) isContextFunc(call *ast.CallExpr, names ...string) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	for _, n := range names {
		if analysisutil.IsFunc(fn, "context", n) {
			return true
		}
	}
	return false
}

func isContextType(t types.Type) bool {
	return t != nil && analysisutil.IsNamedType(t, "context", "Context")
}

// durationOf evaluates a constant duration.
func (m *layer) durationOf(e ast.Expr) (time.Duration, bool) {
	v, ok := m.res.Eval(e)
	if !ok || v.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(v)
	return time.Duration(n), exact && n > 0
}

// timeoutOf returns the timeout a WithTimeout/WithDeadline call sets.
func (m *layer) timeoutOf(call *ast.CallExpr) (time.Duration, bool) {
	switch {
	case m.isContextFunc(call, "WithTimeout", "WithTimeoutCause") && len(call.Args) >= 2:
		return m.durationOf(call.Args[1])
	case m.isContextFunc(call, "WithDeadline", "WithDeadlineCause") && len(call.Args) >= 2:
		// time.Now().Add(d)
		if c, ok := analysisutil.Unparen(call.Args[1]).(*ast.CallExpr); ok && len(c.Args) == 1 {
			if sel, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr); ok && analysisutil.IsMethod(analysisutil.Callee(m.pass.TypesInfo, c), "time", "Time", "Add") {
				if now, ok := analysisutil.Unparen(sel.X).(*ast.CallExpr); ok {
					if fn := analysisutil.Callee(m.pass.TypesInfo, now); analysisutil.IsFunc(fn, "time", "Now") {
						return m.durationOf(c.Args[0])
					}
				}
			}
		}
	}
	return 0, false
}

// bound returns the known time a context expression has left, following
// derived contexts back to constant timeouts set in this package.
func (m *layer) bound(ctx ast.Expr, depth int) (Bound, bool) {
	if depth > 10 {
		return Bound{}, false
	}
	var best Bound
	found := false
	for _, o := range m.vals.Trace(ctx) {
		if depth == 0 && m.exclusive(o.Expr, ctx) {
			// ctx, cancel = WithTimeout(ctx, 1s) in the other branch
			// of an if or switch: never the context used here.
			continue
		}
		call, ok := analysisutil.Unparen(o.Expr).(*ast.CallExpr)
		if !ok {
			return Bound{}, false // a parameter or field: unknown
		}
		var b Bound
		var ok2 bool
		if d, ok := m.timeoutOf(call); ok {
			b, ok2 = Bound{D: d, Pos: call.Pos()}, true
			if pb, ok := m.bound(call.Args[0], depth+1); ok && pb.D < b.D {
				b = pb
			}
		} else if m.isContextFunc(call, "WithCancel", "WithCancelCause", "WithValue") && len(call.Args) > 0 {
			b, ok2 = m.bound(call.Args[0], depth+1)
		}
		if !ok2 {
			return Bound{}, false
		}
		if !found || b.D > best.D {
			best = b // the worst case over the origins: the longest
		}
		found = true
	}
	return best, found
}

// noDeadline reports whether a context expression is known to carry no
// deadline: Background, TODO, or contexts derived from them without one.
func (m *layer) noDeadline(ctx ast.Expr, depth int) bool {
	if depth > 10 {
		return false
	}
	origins := m.vals.Trace(ctx)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		call, ok := analysisutil.Unparen(o.Expr).(*ast.CallExpr)
		if !ok {
			return false
		}
		switch {
		case m.isContextFunc(call, "Background", "TODO"):
		case m.isContextFunc(call, "WithCancel", "WithCancelCause", "WithValue", "WithoutCancel") && len(call.Args) > 0:
			if !m.isContextFunc(call, "WithoutCancel") && !m.noDeadline(call.Args[0], depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// timeoutSummary returns the TimeoutFact of fn.
func (m *layer) timeoutSummary(fn *types.Func) *TimeoutFact {
	return provenance.Summarize(m.pass, m.vals, m.summaries, fn, func(fn *types.Func, d *ast.FuncDecl) *TimeoutFact {
		sig := fn.Type().(*types.Signature)
		var f *TimeoutFact
		for i := range sig.Params().Len() {
			p := sig.Params().At(i)
			if !isContextType(p.Type()) {
				continue
			}
			isParam := func(e ast.Expr) bool {
				id, ok := analysisutil.Unparen(e).(*ast.Ident)
				return ok && m.pass.TypesInfo.Uses[id] == p
			}
			ast.Inspect(d.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if dur, ok := m.timeoutOf(call); ok && isParam(call.Args[0]) {
					if m.defaultOnly(call) {
						return true // a default for callers that set no deadline
					}
					if f == nil || int64(dur) > f.Timeout {
						f = &TimeoutFact{Param: i, Timeout: int64(dur), Site: fmt.Sprintf("%s at %s", calleeName(m, call), analysisutil.ShortPos(m.pass.Fset, call.Pos()))}
					}
					return true
				}
				if cf := analysisutil.Callee(m.pass.TypesInfo, call); cf != nil {
					if sf := m.timeoutSummary(cf); sf != nil && sf.Param < len(call.Args) && isParam(call.Args[sf.Param]) {
						if f == nil || sf.Timeout > f.Timeout {
							f = &TimeoutFact{Param: i, Timeout: sf.Timeout, Site: sf.Site}
						}
					}
				}
				return true
			})
		}
		return f
	})
}

func calleeName(m *layer, call *ast.CallExpr) string {
	if fn := analysisutil.Callee(m.pass.TypesInfo, call); fn != nil {
		return analysisutil.FuncName(fn, nil)
	}
	return "call"
}

// findTimeouts computes the timeout findings of the package.
func (m *layer) findTimeouts() *Timeouts {
	info := m.pass.TypesInfo
	t := &Timeouts{}
	for _, f := range m.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			// 1. An inner timeout on a context with a shorter deadline.
			if d, ok := m.timeoutOf(call); ok {
				if b, ok := m.bound(call.Args[0], 0); ok && b.D < d && !m.defaultOnly(call) {
					t.Inner = append(t.Inner, &TimeoutFinding{Pos: call.Pos(), End: call.End(), Inner: d, What: calleeName(m, call), Outer: b})
				}
				return true
			}
			// An http.Client Timeout on a request whose context has less.
			if s := m.sends.SendOf(call); s != nil && s.Build != nil && len(s.Build.Args) > 0 {
				if ct, ok := m.clientTimeout(call); ok {
					if bf := analysisutil.Callee(info, s.Build); bf != nil && bf.Name() == "NewRequestWithContext" {
						if b, ok := m.bound(s.Build.Args[0], 0); ok && b.D < ct {
							t.Inner = append(t.Inner, &TimeoutFinding{Pos: call.Pos(), End: call.End(), Inner: ct, What: "the http.Client's Timeout", Outer: b})
						}
					}
				}
			}
			if fn := analysisutil.Callee(info, call); fn != nil {
				if sf := m.timeoutSummary(fn); sf != nil && sf.Param < len(call.Args) {
					if b, ok := m.bound(call.Args[sf.Param], 0); ok && int64(b.D) < sf.Timeout {
						t.Inner = append(t.Inner, &TimeoutFinding{Pos: call.Pos(), End: call.End(), Inner: time.Duration(sf.Timeout),
							What: fmt.Sprintf("%s (%s)", analysisutil.FuncName(fn, m.pass.Pkg), sf.Site), Outer: b, Via: fn})
					}
				}
			}
			return true
		})
	}
	m.findDropped(t)
	m.findDiscarded(t)
	for _, r := range m.res.Retries {
		m.retryTimeouts(t, r)
		m.unboundRetry(t, r)
	}
	for _, r := range m.res.Failovers {
		m.ignoredSleeps(t, r)
	}
	for _, r := range m.res.Resumes {
		m.ignoredSleeps(t, r)
	}
	return t
}

// ignoredSleeps finds the waits of a retry, of a failover loop, or the
// waits after failures of a resume loop (a watch, a consumer), that
// ignore cancellation, unless every caller gives a context that is never
// cancelled.
func (m *layer) ignoredSleeps(t *Timeouts, r *model.Retry) {
	scope, results := m.retryScope(r.Pos)
	if scope == "" || m.neverCancelled(r.Pos, scope) {
		return
	}
	each := m.checkedEachPass(r, scope)
	refused := (r.ClientErrors || r.CancelProof) && m.attemptGets(r, scope)
	for _, d := range r.Delays {
		if d.Cancellable {
			continue
		}
		t.Sleeps = append(t.Sleeps, &CancelDelay{Delay: d, Retry: r, Ctx: scope, Returns: results, CheckedEachPass: each, Pause: m.pause(d), RefusedOnly: refused})
	}
	if call, ok := r.Node.(*ast.CallExpr); ok && r.BlindWaits {
		// retry(3, time.Second, func() error { return c.get(ctx) }): the
		// helper's waits are inside it, and watch nothing the caller
		// could cancel.
		t.Sleeps = append(t.Sleeps, &CancelDelay{Delay: &waits.Delay{Call: call, Own: true}, Retry: r, Ctx: scope, Returns: results})
	}
}

// retryTimeouts finds, for one retry, waits that ignore cancellation,
// attempts that cannot fit in the deadline, and sends without any timeout.
func (m *layer) retryTimeouts(t *Timeouts, r *model.Retry) {
	info := m.pass.TypesInfo
	m.ignoredSleeps(t, r)
	// 4. Attempts that cannot fit.
	if r.Attempts > 0 {
		var per time.Duration
		var parent ast.Expr
		for _, op := range r.Ops {
			ast.Inspect(op, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok && r.Kind != model.LibraryRetry {
					return false
				}
				if call, ok := n.(*ast.CallExpr); ok && per == 0 {
					per, parent = m.attemptTimeout(call)
				}
				return true
			})
		}
		if call, ok := r.Node.(*ast.CallExpr); ok && r.Row != nil && r.Row.Path == catalog.ResilintRetry && len(call.Args) > 1 {
			for _, o := range m.vals.Trace(call.Args[1]) {
				if lit, ok := analysisutil.Unparen(o.Expr).(*ast.CompositeLit); ok {
					if v, ok := provenance.LitField(lit, "PerAttemptTimeout"); ok {
						if d, ok := m.durationOf(v); ok {
							per, parent = d, call.Args[0]
						}
					}
				}
			}
		}
		if per > 0 && parent != nil && !readsTimeLeft(info, r) {
			if b, ok := m.bound(parent, 0); ok {
				var delays time.Duration
				for _, d := range r.Delays {
					if dd, ok := m.durationOf(d.Dur); ok && d.Shape.Jitter == waits.JitterNone && !d.Shape.Exponential {
						delays += dd * time.Duration(r.Attempts-1)
					}
				}
				if total := per*time.Duration(r.Attempts) + delays; total > b.D {
					t.Fits = append(t.Fits, &AttemptFit{Retry: r, PerAttempt: per, Delays: delays, Outer: b})
				}
			}
		}
	}
	// 5. Sends with no timeout at all.
	for _, s := range m.sends.Of(r) {
		if s.Call == nil || s.Fact != nil {
			continue
		}
		fn := analysisutil.Callee(info, s.Call)
		if fn == nil || analysisutil.PkgPath(fn) != "net/http" {
			continue
		}
		if !m.clientWithoutTimeout(s.Call) || !m.requestWithoutDeadline(s) {
			continue
		}
		t.NoTimeout = append(t.NoTimeout, &NoTimeout{Send: s, Retry: r})
	}
}

// clientWithoutTimeout reports whether a net/http send's client is known
// to have no Timeout: http.DefaultClient, a package-level helper, or a
// literal without Timeout that nothing sets later.
func (m *layer) clientWithoutTimeout(call *ast.CallExpr) bool {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if id, ok := sel.X.(*ast.Ident); ok {
		if _, isPkg := m.pass.TypesInfo.Uses[id].(*types.PkgName); isPkg {
			return true // http.Get, http.Post: the default client
		}
	}
	origins := m.vals.Trace(sel.X)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		if w := m.vals.LastWrite(o.Via, "Timeout"); w != nil {
			return false
		}
		switch x := analysisutil.Unparen(o.Expr).(type) {
		case *ast.SelectorExpr:
			if !m.isHTTPVar(x, "DefaultClient") {
				return false
			}
		case *ast.CompositeLit:
			if _, ok := provenance.LitField(x, "Timeout"); ok {
				return false
			}
			tr, ok := provenance.LitField(x, "Transport")
			if w := m.vals.LastWrite(o.Via, "Transport"); w != nil {
				tr, ok = w.Value, true
			}
			if ok && !m.transportUnbounded(tr) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// transportUnbounded reports whether a client's Transport is known to
// bound no wait for a response: http.DefaultTransport, or an
// http.Transport literal without ResponseHeaderTimeout that nothing sets
// later. A transport that bounds the wait for the headers cannot hang on
// a server that accepts and never answers; one the layer cannot see into
// (a parameter's, a wrapper's, a clone's) may bound it.
func (m *layer) transportUnbounded(tr ast.Expr) bool {
	origins := m.vals.Trace(tr)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		if w := m.vals.LastWrite(o.Via, "ResponseHeaderTimeout"); w != nil {
			return false
		}
		switch x := analysisutil.Unparen(o.Expr).(type) {
		case *ast.SelectorExpr:
			if !m.isHTTPVar(x, "DefaultTransport") {
				return false
			}
		case *ast.CompositeLit:
			if !analysisutil.IsNamedType(m.pass.TypesInfo.TypeOf(x), "net/http", "Transport") {
				return false
			}
			if _, ok := provenance.LitField(x, "ResponseHeaderTimeout"); ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// isHTTPVar reports whether sel names the package variable name of
// net/http.
func (m *layer) isHTTPVar(sel *ast.SelectorExpr, name string) bool {
	return analysisutil.IsPkgVar(m.pass.TypesInfo.Uses[sel.Sel], "net/http", name)
}

// requestWithoutDeadline reports whether the request of a send is known
// to carry no deadline.
func (m *layer) requestWithoutDeadline(s *sends.Send) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, s.Call)
	if fn == nil {
		return false
	}
	if fn.Name() != "Do" {
		return true // Get, Post, Head, PostForm: no context at all
	}
	if s.Build == nil {
		return false
	}
	bf := analysisutil.Callee(m.pass.TypesInfo, s.Build)
	if bf == nil {
		return false
	}
	if bf.Name() == "NewRequest" {
		return true
	}
	return len(s.Build.Args) > 0 && m.noDeadline(s.Build.Args[0], 0)
}

// clientTimeout returns the constant Timeout of a net/http send's client.
func (m *layer) clientTimeout(call *ast.CallExpr) (time.Duration, bool) {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return 0, false
	}
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil || !analysisutil.IsMethod(fn, "net/http", "Client", fn.Name()) {
		return 0, false
	}
	var best time.Duration
	found := false
	for _, o := range m.vals.Trace(sel.X) {
		var v ast.Expr
		if w := m.vals.LastWrite(o.Via, "Timeout"); w != nil {
			v = w.Value
		} else if lit, ok := analysisutil.Unparen(o.Expr).(*ast.CompositeLit); ok {
			v, _ = provenance.LitField(lit, "Timeout")
		}
		if v == nil {
			return 0, false
		}
		d, ok := m.durationOf(v)
		if !ok {
			return 0, false
		}
		if !found || d < best {
			best = d
		}
		found = true
	}
	return best, found
}

// readsTimeLeft reports whether a hand-written retry loop decides from
// the time it has left — a condition that reads a context's Deadline or
// calls time.Until — whether to make another attempt: attempts that
// would not fit are not made. An attempt that only records its deadline
// decides nothing, nor does an operation given to a library.
func readsTimeLeft(info *types.Info, r *model.Retry) bool {
	if r.Kind != model.LoopRetry && r.Kind != model.GotoRetry {
		return false
	}
	reads := func(e ast.Node) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				fn := analysisutil.Callee(info, call)
				if analysisutil.IsMethod(fn, "context", "Context", "Deadline") || analysisutil.IsFunc(fn, "time", "Until") {
					found = true
				}
			}
			return !found
		})
		return found
	}
	found := false
	for _, op := range r.Ops {
		if e, ok := op.(ast.Expr); ok && reads(e) {
			return true // the loop's own condition
		}
		ast.Inspect(op, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				if x.Init != nil && reads(x.Init) || reads(x.Cond) {
					found = true
				}
			case *ast.ForStmt:
				if x.Cond != nil && reads(x.Cond) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}
