package timeouts

import (
	"go/ast"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// What a retry's attempts run under: the context they can watch, and the
// timeout each sets.

// attemptTimeout returns the timeout a call in an attempt sets on a
// context, and that context: context.WithTimeout itself, a function with
// a TimeoutFact (`c.attempt(ctx)` that sets 5s on the context it is
// given), or a local closure called in place whose body sets one
// (`attempt := func() error { actx, cancel := context.WithTimeout(ctx,
// 5*time.Second); ... }`).
func (m *layer) attemptTimeout(call *ast.CallExpr) (time.Duration, ast.Expr) {
	if d, ok := m.timeoutOf(call); ok {
		return d, call.Args[0]
	}
	if fn := analysisutil.Callee(m.pass.TypesInfo, call); fn != nil {
		if f := m.timeoutSummary(fn); f != nil && f.Param < len(call.Args) {
			return time.Duration(f.Timeout), call.Args[f.Param]
		}
		return 0, nil
	}
	// A local variable only ever assigned one closure.
	id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return 0, nil
	}
	v, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !provenance.IsLocal(v) || len(m.vals.Assigns[v]) != 1 {
		return 0, nil
	}
	lit, ok := analysisutil.Unparen(m.vals.Assigns[v][0].Value).(*ast.FuncLit)
	if !ok {
		return 0, nil
	}
	var d time.Duration
	var parent ast.Expr
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && d == 0 {
			if t, ok := m.timeoutOf(c); ok {
				d, parent = t, c.Args[0]
			} else if fn := analysisutil.Callee(m.pass.TypesInfo, c); fn != nil {
				// The closure calls a function that sets one.
				if f := m.timeoutSummary(fn); f != nil && f.Param < len(c.Args) {
					d, parent = time.Duration(f.Timeout), c.Args[f.Param]
				}
			}
		}
		return d == 0
	})
	return d, parent
}

// retryScope returns the context a retry at pos can watch, and whether
// the function around it returns only an error. The context is the
// innermost enclosing function's (a context.Context or *http.Request
// parameter); a closure without one that runs in place (called where it
// is written, or kept in a local it calls: not Result.Uncounted, not
// started with go or deferred) sees its enclosing function's (`claim := func(j Job)
// error { ... s.claim(ctx, j) ... }`).
func (m *layer) retryScope(pos token.Pos) (scope string, onlyErr bool) {
	at, ok := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root().FindByPos(pos, pos)
	if !ok {
		return "", false
	}
	ftOf := func(n ast.Node) *ast.FuncType {
		if fd, ok := n.(*ast.FuncDecl); ok {
			return fd.Type
		}
		return n.(*ast.FuncLit).Type
	}
	first := true
	// The enclosing functions, innermost first; a go or defer statement
	// between a closure and the function around it starts work meant to
	// outlive the call, or cleanup that runs after the caller gave up,
	// unless the function waits for what the goroutine sends (awaitedGo).
	for c := range at.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		ft := ftOf(c.Node())
		if first {
			first = false
			res := ft.Results
			onlyErr = res != nil && res.NumFields() == 1 && analysisutil.IsErrorType(m.pass.TypesInfo.TypeOf(res.List[0].Type))
		}
		if s := m.ctxInScope(ft); s != "" {
			return s, onlyErr
		}
		lit, ok := c.Node().(*ast.FuncLit)
		if !ok || m.res.Uncounted(lit) {
			break
		}
		detached := false
		for p := range c.Enclosing((*ast.GoStmt)(nil), (*ast.DeferStmt)(nil), (*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
			if p == c {
				continue
			}
			switch p.Node().(type) {
			case *ast.GoStmt:
				detached = !awaitedGo(m.pass.TypesInfo, p, c.Node().(*ast.FuncLit))
			case *ast.DeferStmt:
				detached = true
			}
			break
		}
		if detached {
			break
		}
	}
	return "", onlyErr
}
