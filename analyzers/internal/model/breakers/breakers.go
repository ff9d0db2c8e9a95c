package breakers

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// Analyzer is the breaker layer. It reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:       "resilbreakers",
	Doc:        "find circuit breaker calls, the retries that run outside them and how those treat the open error (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Requires:   []*analysis.Analyzer{model.Analyzer, provenance.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*BreakerFact)(nil)},
}

// Result lists the package's retries that reach a circuit breaker or
// compose a failsafe-go retry policy outside one, in the model's order.
type Result struct {
	Retries []*RetryBreakers
}

// RetryBreakers is what the layer knows of one retry and the breakers
// it reaches.
type RetryBreakers struct {
	Retry *model.Retry
	// Breakers lists the circuit breaker calls one attempt reaches: the
	// retry runs outside those breakers. StopsOnOpen says the retry stops
	// at once on a breaker's open error; RetriesOpen that it explicitly
	// retries it. Order is set for a failsafe-go executor that lists its
	// retry policy before its circuit breaker.
	Breakers    []*BreakerReach
	StopsOnOpen bool
	RetriesOpen bool
	Order       *Order
}

type layer struct {
	vals *provenance.Values
	pass *analysis.Pass
	res  *model.Result
	at   map[*ast.CallExpr]*BreakerSite
	done map[*types.Func]*BreakerFact
	busy map[*types.Func]bool
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	out := &Result{}
	if res.Opaque() {
		return out, nil
	}
	m := &layer{pass: pass, res: res, vals: pass.ResultOf[provenance.Analyzer].(*provenance.Values), at: map[*ast.CallExpr]*BreakerSite{}, done: map[*types.Func]*BreakerFact{}, busy: map[*types.Func]bool{}}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				m.findBreaker(call)
			}
			return true
		})
	}
	for _, r := range res.Retries {
		rb := &RetryBreakers{Retry: r}
		for _, op := range r.Ops {
			rb.Breakers = append(rb.Breakers, m.breakersIn(op, r.Node)...)
		}
		for _, fn := range r.OpFuncs {
			if f := m.breakerSummary(fn); f != nil {
				rb.Breakers = append(rb.Breakers, &BreakerReach{Pos: r.Pos, Callee: fn, Fact: f})
			}
		}
		if call, ok := r.Node.(*ast.CallExpr); ok && r.Row != nil && r.Row.Recv == "Executor" {
			m.failsafeOrder(rb, call)
		}
		rb.Breakers = dedupeBreakers(rb.Breakers)
		if len(rb.Breakers) > 0 || rb.Order != nil {
			m.openHandling(rb)
			out.Retries = append(out.Retries, rb)
		}
	}
	decls := res.Decls()
	fns := make([]*types.Func, 0, len(decls))
	for fn := range decls {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	for _, fn := range fns {
		if f := m.breakerSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
	}
	return out, nil
}

func catalogRow(fn *types.Func) *catalog.Row {
	return catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
}

func (m *layer) callOf(e ast.Expr) (*ast.CallExpr, *types.Func) {
	c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	return c, analysisutil.Callee(m.pass.TypesInfo, c)
}

// funcOfExpr returns the function a function value names.
func funcOfExpr(info *types.Info, e ast.Expr) (*types.Func, bool) {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		if fn, ok := info.Uses[x].(*types.Func); ok {
			return fn.Origin(), true
		}
	case *ast.SelectorExpr:
		if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
			return fn.Origin(), true
		}
	}
	return nil, false
}

// BreakerSite is a call through a circuit breaker.
type BreakerSite struct {
	Call *ast.CallExpr
	Pos  token.Pos
	Desc string // "gobreaker CircuitBreaker.Execute", "failsafe circuit breaker policy"
	Path string // the breaker library's import path
}

// BreakerFact is exported for every function that calls through a circuit
// breaker, directly or through any chain of calls.
type BreakerFact struct {
	Via  []string // functions from the callee down to the one with the breaker call
	Site string   // "gobreaker CircuitBreaker.Execute at client.go:12"
	Path string   // the breaker library's import path
}

func (*BreakerFact) AFact() {}

func (f *BreakerFact) String() string {
	if len(f.Via) > 0 {
		return "breaker(via " + strings.Join(f.Via, " → ") + ")"
	}
	return "breaker"
}

// BreakerReach is a breaker call reached from one attempt of a retry.
type BreakerReach struct {
	Pos    token.Pos
	Site   *BreakerSite // a breaker call of this package
	Callee *types.Func  // or a function that calls one
	Fact   *BreakerFact
}

// Order is the failsafe-go policy order of an executor that composes a
// retry policy outside a circuit breaker: policies are outermost first.
// Retry and Breaker are both arguments of the one With call.
type Order struct {
	Retry, Breaker ast.Expr // the policy arguments
}

func (m *layer) breakerRow(call *ast.CallExpr) *catalog.Row {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return nil
	}
	if row := catalogRow(fn); row != nil && row.Role == catalog.Breaker {
		return row
	}
	return nil
}

func (m *layer) isPolicy(e ast.Expr, role catalog.Role) bool {
	t := m.pass.TypesInfo.TypeOf(e)
	for i := range catalog.Rows {
		r := &catalog.Rows[i]
		if r.Role == role && analysisutil.IsNamedType(t, r.Path, r.Name) {
			return true
		}
	}
	return false
}

// findBreaker records a breaker call (or a failsafe-go executor call with
// a circuit breaker policy).
func (m *layer) findBreaker(call *ast.CallExpr) {
	if row := m.breakerRow(call); row != nil {
		m.at[call] = &BreakerSite{Call: call, Pos: call.Fun.Pos(), Desc: row.Lib, Path: row.Path}
		return
	}
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return
	}
	row := catalogRow(fn)
	if row == nil || row.Role != catalog.Retry || row.Recv != "Executor" {
		return
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	policies, _ := m.res.ExecutorPolicies(sel.X)
	for _, p := range policies {
		if m.isPolicy(p, catalog.BreakerPolicyType) {
			m.at[call] = &BreakerSite{Call: call, Pos: call.Fun.Pos(), Desc: "failsafe-go circuit breaker policy", Path: catalog.FailsafeCB}
			return
		}
	}
}

// failsafeOrder finds a retry policy listed before a circuit breaker in a
// failsafe-go executor: the retry runs outside the breaker.
func (m *layer) failsafeOrder(r *RetryBreakers, call *ast.CallExpr) {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	for _, o := range m.vals.Trace(sel.X) {
		c, fn := m.callOf(o.Expr)
		if fn == nil || !analysisutil.IsFunc(fn, catalog.Failsafe, "With") {
			continue
		}
		ri, bi := -1, -1
		for i, a := range c.Args {
			switch {
			case m.res.IsRetryPolicy(a) && ri < 0:
				ri = i
			case m.isPolicy(a, catalog.BreakerPolicyType) && bi < 0:
				bi = i
			}
		}
		if ri < 0 || bi < 0 || ri > bi {
			continue
		}
		r.Order = &Order{Retry: c.Args[ri], Breaker: c.Args[bi]}
		return
	}
	// failsafe.With(rp).Compose(cb): the executor's policies wrap the
	// one Compose adds. Followed in one chain of calls only, so that
	// the policies are written in one statement.
	var chain []ast.Expr // outermost first
	var walk func(e ast.Expr) bool
	walk = func(e ast.Expr) bool {
		c, fn := m.callOf(analysisutil.Unparen(e))
		if fn == nil {
			return false
		}
		if analysisutil.IsFunc(fn, catalog.Failsafe, "With") {
			chain = append(chain, c.Args...)
			return true
		}
		row := catalogRow(fn)
		inner, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr)
		if row == nil || row.Role != catalog.ExecutorWrapper || !ok || !walk(inner.X) {
			return false
		}
		if row.BoundArg >= 0 {
			chain = append(chain, c.Args...)
		}
		return true
	}
	if c, ok := analysisutil.Unparen(sel.X).(*ast.CallExpr); !ok || !walk(c) {
		return
	}
	ri, bi := -1, -1
	for i, a := range chain {
		switch {
		case m.res.IsRetryPolicy(a) && ri < 0:
			ri = i
		case m.isPolicy(a, catalog.BreakerPolicyType) && bi < 0:
			bi = i
		}
	}
	if ri >= 0 && bi >= 0 && ri < bi {
		r.Order = &Order{Retry: chain[ri], Breaker: chain[bi]}
	}
}

// breakersIn lists the breaker calls reached from root: breaker calls,
// and calls of functions that call through a breaker.
func (m *layer) breakersIn(root ast.Node, self ast.Node) []*BreakerReach {
	info := m.pass.TypesInfo
	var out []*BreakerReach
	addFunc := func(pos token.Pos, fn *types.Func) {
		if f := m.breakerSummary(fn); f != nil {
			out = append(out, &BreakerReach{Pos: pos, Callee: fn, Fact: f})
		}
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			if m.res.Uncounted(x) {
				return false
			}
		case *ast.CallExpr:
			if s := m.at[x]; s != nil && ast.Node(x) != self {
				out = append(out, &BreakerReach{Pos: s.Pos, Site: s})
				return true
			}
			if fn := analysisutil.Callee(info, x); fn != nil {
				addFunc(x.Pos(), fn)
			}
		}
		return true
	})
	return dedupeBreakers(out)
}

func dedupeBreakers(rs []*BreakerReach) []*BreakerReach {
	seen := map[token.Pos]bool{}
	var out []*BreakerReach
	for _, r := range rs {
		if !seen[r.Pos] {
			seen[r.Pos] = true
			out = append(out, r)
		}
	}
	return out
}

// breakerSummary returns the BreakerFact of fn, computed for this
// package's functions (a function met again while its own is computed
// answers nil: recursion adds nothing) and imported for others.
func (m *layer) breakerSummary(fn *types.Func) *BreakerFact {
	fn = fn.Origin()
	if fn.Pkg() != m.pass.Pkg {
		var f BreakerFact
		if fn.Pkg() != nil && m.pass.ImportObjectFact(fn, &f) {
			return &f
		}
		return nil
	}
	if f, ok := m.done[fn]; ok {
		return f
	}
	d := m.res.Decl(fn)
	if d == nil || m.busy[fn] {
		return nil
	}
	m.busy[fn] = true
	reach := m.breakersIn(d.Body, nil)
	var f *BreakerFact
	if len(reach) > 0 {
		w := reach[0]
		if w.Site != nil {
			f = &BreakerFact{Site: fmt.Sprintf("%s at %s", w.Site.Desc, analysisutil.ShortPos(m.pass.Fset, w.Site.Pos)), Path: w.Site.Path}
		} else {
			f = &BreakerFact{Via: append([]string{analysisutil.FuncName(w.Callee, nil)}, w.Fact.Via...), Site: w.Fact.Site, Path: w.Fact.Path}
		}
	}
	delete(m.busy, fn)
	m.done[fn] = f
	return f
}

// openHandling judges how a retry treats a breaker's open error: whether
// it stops at once on it, or explicitly retries it.
func (m *layer) openHandling(r *RetryBreakers) {
	if r.Retry.Row != nil && r.Retry.Row.Path == catalog.ResilintRetry && allResilintBreakers(r.Breakers) {
		// runtime/retry stops on an error with CircuitOpen() bool, which
		// runtime/breaker's rejections have; other breakers' errors it
		// does not know.
		r.StopsOnOpen = true
	}
	if r.Retry.ClientErrors {
		// It goes round only on a response refused with a client
		// error; an open breaker's rejection sends no request and
		// brings no response, so the retry never goes round on it.
		r.StopsOnOpen = true
	}
	var nodes []ast.Node
	nodes = append(nodes, r.Retry.Ops...)
	if call, ok := r.Retry.Node.(*ast.CallExpr); ok {
		var args []ast.Expr
		args = append(args, call.Args...)
		if r.Retry.Row != nil && r.Retry.Row.Role == catalog.Retry && r.Retry.Row.BoundArg == -1 {
			// A failsafe-go executor: its policies are on the receiver
			// (failsafe.With(rp).Run(op)), and so are their options.
			if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				policies, _ := m.res.ExecutorPolicies(sel.X)
				args = append(args, policies...)
			}
		}
		// Options are calls too: retry.RetryIf(isRetryable).
		for i := 0; i < len(args); i++ {
			if c, ok := analysisutil.Unparen(args[i]).(*ast.CallExpr); ok {
				args = append(args, c.Args...)
			}
		}
		for _, a := range args {
			nodes = append(nodes, a)
			for _, o := range m.vals.Trace(a) {
				if o.Expr != a {
					nodes = append(nodes, o.Expr)
				}
			}
			// A classifier given as a function of this package.
			if fn, ok := funcOfExpr(m.pass.TypesInfo, a); ok {
				if d := m.res.Decl(fn); d != nil {
					nodes = append(nodes, d.Body)
				}
			}
		}
	}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.IfStmt:
				if neg, ok := m.mentionsOpen(x.Cond); ok {
					if !neg && stops(x.Body, m) {
						r.StopsOnOpen = true
					}
					if !neg && continues(x.Body) {
						r.RetriesOpen = true
					}
				}
			case *ast.CaseClause:
				for _, e := range x.List {
					if neg, ok := m.mentionsOpen(e); ok && !neg {
						if stops(&ast.BlockStmt{List: x.Body}, m) {
							r.StopsOnOpen = true
						}
						if continues(&ast.BlockStmt{List: x.Body}) {
							r.RetriesOpen = true
						}
					}
				}
			case *ast.ReturnStmt:
				// A classifier: return !errors.Is(err, ErrOpenState) stops,
				// return errors.Is(err, ErrOpenState) retries it.
				for _, res := range x.Results {
					if tv := m.pass.TypesInfo.Types[res]; tv.Type != nil && types.Identical(tv.Type, types.Typ[types.Bool]) {
						if neg, ok := m.mentionsOpen(res); ok {
							if neg {
								r.StopsOnOpen = true
							} else {
								r.RetriesOpen = true
							}
						}
					}
				}
			case *ast.CallExpr:
				// An option naming the errors to retry or to stop on
				// (failsafe-go: HandleErrors(circuitbreaker.ErrOpen) retries
				// it, AbortOnErrors(...) stops): its row's Errors.
				fn := analysisutil.Callee(m.pass.TypesInfo, x)
				if fn == nil {
					break
				}
				if row := catalogRow(fn); row != nil && row.Errors != 0 {
					for _, a := range x.Args {
						if _, ok := m.mentionsOpen(a); ok || m.isOpenValue(a) {
							switch row.Errors {
							case catalog.ErrorsStop:
								r.StopsOnOpen = true
							case catalog.ErrorsRetried:
								r.RetriesOpen = true
							}
						}
					}
				}
			}
			return true
		})
	}
}

// mentionsOpen reports whether e tests for a breaker's open error, and
// whether that test is negated (!errors.Is(err, ErrOpenState)).
func (m *layer) mentionsOpen(e ast.Expr) (negated, ok bool) {
	info := m.pass.TypesInfo
	var walk func(e ast.Expr, neg bool) (bool, bool)
	walk = func(e ast.Expr, neg bool) (bool, bool) {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.UnaryExpr:
			if x.Op == token.NOT {
				return walk(x.X, !neg)
			}
		case *ast.BinaryExpr:
			switch x.Op {
			case token.LAND, token.LOR:
				if n, ok := walk(x.X, neg); ok {
					return n, true
				}
				return walk(x.Y, neg)
			case token.NEQ:
				if m.isOpenValue(x.X) || m.isOpenValue(x.Y) || isOpenState(m.pass.TypesInfo, x) {
					return !neg, true
				}
			case token.EQL:
				if m.isOpenValue(x.X) || m.isOpenValue(x.Y) || isOpenState(m.pass.TypesInfo, x) {
					return neg, true
				}
			}
		case *ast.CallExpr:
			fn := analysisutil.Callee(info, x)
			if fn != nil {
				if row := catalogRow(fn); row != nil && row.Role == catalog.OpenCheck {
					return neg, true
				}
				if catalog.ProtocolMethod(catalog.OpenMethod, fn.Name()) {
					return neg, true // err.CircuitOpen(), whatever the error's type
				}
				if analysisutil.PkgPath(fn) == "errors" && fn.Name() == "Is" && len(x.Args) == 2 && m.isOpenValue(x.Args[1]) {
					return neg, true
				}
			}
		}
		return false, false
	}
	return walk(e, false)
}

func (m *layer) isOpenValue(e ast.Expr) bool {
	obj := analysisutil.ReferredObject(m.pass.TypesInfo, e)
	if obj == nil {
		return false
	}
	row := catalog.Lookup(analysisutil.PkgPath(obj), "", obj.Name())
	return row != nil && row.Role == catalog.OpenError
}

// stops reports whether a block leaves the retry: return, break, or a
// Permanent marker.
func stops(b *ast.BlockStmt, m *layer) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			if x.Tok == token.BREAK || x.Tok == token.GOTO {
				found = true
			}
		case *ast.CallExpr:
			if fn := analysisutil.Callee(m.pass.TypesInfo, x); fn != nil {
				if row := catalogRow(fn); row != nil && row.Role == catalog.Permanent {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func continues(b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if x, ok := n.(*ast.BranchStmt); ok && x.Tok == token.CONTINUE {
			found = true
		}
		return !found
	})
	return found
}

// isOpenState recognizes cb.State() == gobreaker.StateOpen: a call
// compared with a constant the catalog lists as a breaker's open state
// (OpenState rows), whatever the state method is called.
func isOpenState(info *types.Info, be *ast.BinaryExpr) bool {
	isOpenConst := func(e ast.Expr) bool {
		c, ok := analysisutil.ReferredObject(info, e).(*types.Const)
		if !ok || c.Pkg() == nil {
			return false
		}
		row := catalog.Lookup(c.Pkg().Path(), "", c.Name())
		return row != nil && row.Role == catalog.OpenState
	}
	isStateCall := func(e ast.Expr, other ast.Expr) bool {
		_, ok := analysisutil.Unparen(e).(*ast.CallExpr)
		return ok && types.Identical(info.TypeOf(e), info.TypeOf(other))
	}
	return isStateCall(be.X, be.Y) && isOpenConst(be.Y) || isStateCall(be.Y, be.X) && isOpenConst(be.X)
}

// allResilintBreakers reports whether every breaker in bs is
// runtime/breaker's.
func allResilintBreakers(bs []*BreakerReach) bool {
	for _, b := range bs {
		path := ""
		switch {
		case b.Site != nil:
			path = b.Site.Path
		case b.Fact != nil:
			path = b.Fact.Path
		}
		if path != catalog.ResilintBreaker {
			return false
		}
	}
	return true
}
