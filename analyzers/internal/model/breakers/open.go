package breakers

// How a retry handles a breaker's open rejection: stops on it, retries
// it, or cannot tell.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

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
			case *ast.SwitchStmt:
				// switch err { case breaker.ErrBreakerOpen: return err }:
				// a case listing the open error tests the tag against it.
				if x.Tag != nil {
					for i, c := range x.Body.List {
						cc := c.(*ast.CaseClause)
						if slices.ContainsFunc(cc.List, m.isOpenValue) {
							m.judgeOpenCase(r, x.Body.List, i)
						}
					}
				}
			case *ast.TypeSwitchStmt:
				// switch err.(type) { case hystrix.CircuitError: return err }
				for i, c := range x.Body.List {
					cc := c.(*ast.CaseClause)
					if slices.ContainsFunc(cc.List, func(e ast.Expr) bool { return m.isOpenType(m.pass.TypesInfo.TypeOf(e)) }) {
						m.judgeOpenCase(r, x.Body.List, i)
					}
				}
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
						if stopsInCase(x.Body, m) {
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
	return m.mentionsOpenDepth(e, 0)
}

// mentionsOpenDepth is mentionsOpen, following the package's own bool
// helpers (`permanent(err)` returning `errors.Is(err, ErrOpenState) ||
// ...`) depth calls down.
func (m *layer) mentionsOpenDepth(e ast.Expr, depth int) (negated, ok bool) {
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
				// errors.As(err, &ce) with ce of the open error's own
				// type (hystrix.CircuitError): the test holds for it.
				if analysisutil.PkgPath(fn) == "errors" && fn.Name() == "As" && len(x.Args) == 2 {
					if p, ok := info.TypeOf(x.Args[1]).Underlying().(*types.Pointer); ok && m.isOpenType(p.Elem()) {
						return neg, true
					}
				}
				if rn, ok := m.helperMentionsOpen(fn, depth); ok {
					return neg != rn, true
				}
			}
		}
		return false, false
	}
	return walk(e, false)
}

// helperMentionsOpen reports whether fn, a function of the package with
// one bool result, answers a test for a breaker's open error: one of its
// returns tests it (and whether negated), the others return constants or
// test nothing of it.
func (m *layer) helperMentionsOpen(fn *types.Func, depth int) (negated, ok bool) {
	if depth >= 3 || fn.Pkg() != m.pass.Pkg {
		return false, false
	}
	sig, isSig := fn.Type().(*types.Signature)
	if !isSig || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return false, false
	}
	d := m.res.Decl(fn)
	if d == nil || d.Body == nil {
		return false, false
	}
	found, conflict := false, false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Results) != 1 {
				return true
			}
			if rn, rok := m.mentionsOpenDepth(x.Results[0], depth+1); rok {
				if found && rn != negated {
					conflict = true
				}
				found, negated = true, rn
			}
		}
		return true
	})
	return negated, found && !conflict
}

// judgeOpenCase records what a case that matches the open error does: a
// case that falls through does what the next one does too; an unlabeled
// break in it leaves the switch, not the retry.
func (m *layer) judgeOpenCase(r *RetryBreakers, clauses []ast.Stmt, i int) {
	var body []ast.Stmt
	for ; i < len(clauses); i++ {
		b := clauses[i].(*ast.CaseClause).Body
		body = append(body, b...)
		if len(b) == 0 {
			break
		}
		if br, ok := b[len(b)-1].(*ast.BranchStmt); !ok || br.Tok != token.FALLTHROUGH {
			break
		}
	}
	if stopsInCase(body, m) {
		r.StopsOnOpen = true
	}
	if continues(&ast.BlockStmt{List: body}) {
		r.RetriesOpen = true
	}
}

// stopsInCase is stops for the statements of a case clause, where an
// unlabeled break leaves only the switch (or select).
func stopsInCase(body []ast.Stmt, m *layer) bool {
	return leaves(&ast.BlockStmt{List: body}, m, false)
}

// isOpenType reports whether t is the named type, of the breaker's own
// package, of a variable an OpenError row names
// (hystrix.CircuitError, the type of ErrCircuitOpen): a value of it may
// be that error. An error type of another package (errors.New's) is not.
func (m *layer) isOpenType(t types.Type) bool {
	if t == nil {
		return false
	}
	// The very type of the variable: a *CircuitError target never
	// matches hystrix's CircuitError values.
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	pkg := named.Obj().Pkg()
	for _, row := range catalog.Rows {
		if row.Role != catalog.OpenError || row.Path != pkg.Path() {
			continue
		}
		v, ok := pkg.Scope().Lookup(row.Name).(*types.Var)
		if ok && types.Identical(v.Type(), named) {
			return true
		}
	}
	return false
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
func stops(b *ast.BlockStmt, m *layer) bool { return leaves(b, m, true) }

// leaves reports whether b leaves the retry: a return, a goto, a labeled
// break, an unlabeled break when unlabeled (false in a case clause,
// whose break leaves only its switch), or a Permanent marker.
func leaves(b *ast.BlockStmt, m *layer, unlabeled bool) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			if x.Tok == token.GOTO || x.Tok == token.BREAK && (x.Label != nil || unlabeled) {
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
