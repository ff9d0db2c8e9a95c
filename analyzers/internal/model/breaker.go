package model

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

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

func (m *builder) breakerRow(call *ast.CallExpr) *catalog.Row {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return nil
	}
	if row := catalogRow(fn); row != nil && row.Role == catalog.Breaker {
		return row
	}
	return nil
}

func (m *builder) isPolicy(e ast.Expr, role catalog.Role) bool {
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
func (m *builder) findBreaker(call *ast.CallExpr) {
	if row := m.breakerRow(call); row != nil {
		m.breakerAt[call] = &BreakerSite{Call: call, Pos: call.Fun.Pos(), Desc: row.Lib, Path: row.Path}
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
	policies, _ := m.executorPolicies(sel.X, 0)
	for _, p := range policies {
		if m.isPolicy(p, catalog.BreakerPolicyType) {
			m.breakerAt[call] = &BreakerSite{Call: call, Pos: call.Fun.Pos(), Desc: "failsafe-go circuit breaker policy", Path: catalog.FailsafeCB}
			return
		}
	}
}

// failsafeOrder finds a retry policy listed before a circuit breaker in a
// failsafe-go executor: the retry runs outside the breaker.
func (m *builder) failsafeOrder(r *Retry, call *ast.CallExpr) {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	for _, o := range m.vals.trace(sel.X) {
		c, fn := m.callOf(o.expr)
		if fn == nil || !analysisutil.IsFunc(fn, catalog.Failsafe, "With") {
			continue
		}
		ri, bi := -1, -1
		for i, a := range c.Args {
			switch {
			case m.isRetryPolicy(a) && ri < 0:
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
}

// breakersIn lists the breaker calls reached from root: breaker calls,
// and calls of functions that call through a breaker.
func (m *builder) breakersIn(root ast.Node, self ast.Node) []*BreakerReach {
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
			if m.uncounted[x] {
				return false
			}
		case *ast.CallExpr:
			if s := m.breakerAt[x]; s != nil && ast.Node(x) != self {
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
// package's functions and imported for others.
func (m *builder) breakerSummary(fn *types.Func) *BreakerFact {
	return summarize(m, m.bsummaries, fn, func(fn *types.Func, d *ast.FuncDecl) *BreakerFact {
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
		return f
	})
}

// openHandling judges how a retry treats a breaker's open error: whether
// it stops at once on it, or explicitly retries it.
func (m *builder) openHandling(r *Retry) {
	if r.Row != nil && r.Row.Path == catalog.ResilintRetry && allResilintBreakers(r.Breakers) {
		// runtime/retry stops on an error with CircuitOpen() bool, which
		// runtime/breaker's rejections have; other breakers' errors it
		// does not know.
		r.StopsOnOpen = true
	}
	var nodes []ast.Node
	nodes = append(nodes, r.Ops...)
	if call, ok := r.Node.(*ast.CallExpr); ok {
		var args []ast.Expr
		args = append(args, call.Args...)
		if r.Row != nil && r.Row.Role == catalog.Retry && r.Row.BoundArg == -1 {
			// A failsafe-go executor: its policies are on the receiver
			// (failsafe.With(rp).Run(op)), and so are their options.
			if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				policies, _ := m.executorPolicies(sel.X, 0)
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
			for _, o := range m.vals.trace(a) {
				if o.expr != a {
					nodes = append(nodes, o.expr)
				}
			}
			// A classifier given as a function of this package.
			if fn, ok := funcOfExpr(m.pass.TypesInfo, a); ok {
				if d := m.vals.decls[fn]; d != nil {
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
func (m *builder) mentionsOpen(e ast.Expr) (negated, ok bool) {
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

func (m *builder) isOpenValue(e ast.Expr) bool {
	var obj types.Object
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		obj = m.pass.TypesInfo.Uses[x]
	case *ast.SelectorExpr:
		obj = m.pass.TypesInfo.Uses[x.Sel]
	}
	if obj == nil {
		return false
	}
	row := catalog.Lookup(analysisutil.PkgPath(obj), "", obj.Name())
	return row != nil && row.Role == catalog.OpenError
}

// stops reports whether a block leaves the retry: return, break, or a
// Permanent marker.
func stops(b *ast.BlockStmt, m *builder) bool {
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
		var obj types.Object
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			obj = info.Uses[x]
		case *ast.SelectorExpr:
			obj = info.Uses[x.Sel]
		}
		c, ok := obj.(*types.Const)
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
