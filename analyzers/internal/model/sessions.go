package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// SessionFact is exported for every function whose last result is an
// error and whose every return gives a non-nil error there: it runs
// until it fails (holds a connection and reads from it, listens for
// notifications) and never returns success. A loop that calls it and,
// after it returns, waits and calls it again reconnects a session: its
// failure path is a retry of the session however the loop tests the
// error (see resumeSeen). Found by the syntax of each return:
//
//   - a call of errors.New or fmt.Errorf, or of another such function;
//   - a composite literal or the address of one (a non-nil interface);
//   - a variable inside the branch of `if v != nil` (or a case of a
//     tagless switch so guarded) that does not assign it;
//   - ctx.Err() or context.Cause(ctx) in a select case receiving from
//     that ctx.Done().
//
// A function that accepts connections (a server's serve loop) is no
// session of a dependency: a loop that restarts it restarts a listener
// of this host.
type SessionFact struct{}

func (*SessionFact) AFact() {}

func (*SessionFact) String() string { return "session" }

// findSessions computes the package's session functions (one may
// return another's error) and exports their facts.
func (m *builder) findSessions() {
	root := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root()
	m.sessionFuncs = map[*types.Func]bool{}
	m.funcsWhere(m.sessionFuncs, func(fn *types.Func, d *ast.FuncDecl) bool {
		cur, ok := root.FindNode(d)
		return ok && m.failsOnly(fn.Type().(*types.Signature), cur)
	}, func() analysis.Fact { return &SessionFact{} })
}

// isSession reports whether fn, of this package or another (by its
// fact), is a session function.
func (m *builder) isSession(fn *types.Func) bool {
	return m.funcHas(fn, m.sessionFuncs, new(SessionFact))
}

// failsOnly reports whether the function declared at decl, of signature
// sig, returns a non-nil error as its last result at every return (and
// returns at all). Returns of closures inside it are theirs, not its.
func (m *builder) failsOnly(sig *types.Signature, decl inspector.Cursor) bool {
	n := sig.Results().Len()
	if n == 0 || !analysisutil.IsErrorType(sig.Results().At(n-1).Type()) {
		return false
	}
	d := decl.Node().(*ast.FuncDecl)
	if m.accepts([]ast.Node{d.Body}) {
		return false
	}
	ok, saw := true, false
	decl.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.ReturnStmt)(nil)}, func(c inspector.Cursor) bool {
		ret, isRet := c.Node().(*ast.ReturnStmt)
		if !isRet || !ok {
			return false // a closure's returns are its own
		}
		saw = true
		if len(ret.Results) != n {
			ok = false // a bare return, or a call giving every result
			return false
		}
		ok = m.nonNilErr(ret.Results[n-1], c)
		return false
	})
	return ok && saw
}

// nonNilErr reports whether e, the error a return statement at ret
// gives, is surely not nil there.
func (m *builder) nonNilErr(e ast.Expr, ret inspector.Cursor) bool {
	info := m.pass.TypesInfo
	e = analysisutil.Unparen(e)
	switch x := e.(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, lit := analysisutil.Unparen(x.X).(*ast.CompositeLit)
		return x.Op == token.AND && lit
	case *ast.CallExpr:
		fn := analysisutil.Callee(info, x)
		switch {
		case analysisutil.IsFunc(fn, "errors", "New"), analysisutil.IsFunc(fn, "fmt", "Errorf"):
			return true
		case m.isSession(fn):
			return true
		case isCtxErr(fn):
			return doneCase(info, x, ret)
		}
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		return ok && guardedNonNil(info, v, ret)
	}
	return false
}

// isCtxErr reports whether fn is context.Context's Err or context.Cause.
func isCtxErr(fn *types.Func) bool {
	return analysisutil.IsFunc(fn, "context", "Cause") || analysisutil.IsMethod(fn, "context", "Context", "Err")
}

// doneCase reports whether the call ctx.Err() (or context.Cause(ctx)) at
// ret lies in a select case that received from the same ctx.Done().
func doneCase(info *types.Info, call *ast.CallExpr, ret inspector.Cursor) bool {
	var ctxExpr ast.Expr
	if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok && len(call.Args) == 0 {
		ctxExpr = sel.X
	} else if len(call.Args) == 1 {
		ctxExpr = call.Args[0]
	}
	ctx := analysisutil.ReferredObject(info, ctxExpr)
	if ctx == nil {
		return false
	}
	for c := range ret.Enclosing() {
		switch n := c.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.CommClause:
			return receivesDone(info, n.Comm, ctx)
		}
	}
	return false
}

// receivesDone reports whether comm receives from ctx.Done() of the
// context variable ctx.
func receivesDone(info *types.Info, comm ast.Stmt, ctx types.Object) bool {
	call, ok := analysisutil.Unparen(analysisutil.CommRecv(comm)).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !analysisutil.IsMethod(analysisutil.Callee(info, call), "context", "Context", "Done") {
		return false
	}
	return analysisutil.ReferredObject(info, sel.X) == ctx
}

// guardedNonNil reports whether the variable v, returned at ret, is
// known non-nil there: ret lies in the body of an `if` whose condition
// requires v != nil (alone or as an operand of &&), or in a clause of a
// tagless switch whose case so requires, and nothing in that body or
// clause assigns v or takes its address.
func guardedNonNil(info *types.Info, v *types.Var, ret inspector.Cursor) bool {
	child := ret
	for c := range ret.Enclosing() {
		if c == ret {
			continue
		}
		switch n := c.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.IfStmt:
			if child.Node() == n.Body && requiresNonNil(info, n.Cond, v) {
				return !analysisutil.AssignedIn(info, n.Body, v)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if requiresNonNil(info, e, v) && len(n.List) == 1 {
					if sw, ok := c.Parent().Parent().Node().(*ast.SwitchStmt); ok && sw.Tag == nil {
						return !analysisutil.AssignedIn(info, n, v)
					}
				}
			}
		}
		child = c
	}
	return false
}

// requiresNonNil reports whether the condition e holds only when v is
// not nil: `v != nil`, or an operand of && that is.
func requiresNonNil(info *types.Info, e ast.Expr, v *types.Var) bool {
	b, ok := analysisutil.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch b.Op {
	case token.LAND:
		return requiresNonNil(info, b.X, v) || requiresNonNil(info, b.Y, v)
	case token.NEQ:
		for _, p := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			id, ok := analysisutil.Unparen(p[0]).(*ast.Ident)
			if ok && info.Uses[id] == v && isNilIdent(info, p[1]) {
				return true
			}
		}
	}
	return false
}

func isNilIdent(info *types.Info, e ast.Expr) bool {
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}
