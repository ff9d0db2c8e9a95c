package timeouts

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model"
)

// attemptGets reports whether a call of an attempt of the retry r is
// given the context named scope itself as an argument
// (`c.call(ctx, req)`), or a local context every value of which is made
// from it by context's WithCancel, WithTimeout, WithDeadline or
// WithValue (`tctx, cancel := context.WithTimeout(ctx, d)` before the
// loop): once the context is done, that attempt fails at once, with no
// response.
func (m *layer) attemptGets(r *model.Retry, scope string) bool {
	info := m.pass.TypesInfo
	return analysisutil.AnyIn(r.Ops, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		if fn := analysisutil.Callee(info, call); fn != nil && analysisutil.PkgPath(fn) == "context" {
			// context.WithoutCancel(ctx): a context of its own.
			return false
		}
		return slices.ContainsFunc(call.Args, func(a ast.Expr) bool {
			return isContextType(info.TypeOf(a)) && (types.ExprString(a) == scope || m.childOf(a, scope, 0))
		})
	})
}

// childOf reports whether e is a local variable every value of which is
// a context derived from the one named scope (directly, or through
// another such variable), by a function of package context that keeps
// its parent's cancellation.
func (m *layer) childOf(e ast.Expr, scope string, depth int) bool {
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	if !ok || depth > 4 {
		return false
	}
	v, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	assigns := m.vals.Assigns[v]
	if len(assigns) == 0 {
		return false
	}
	for _, a := range assigns {
		call, ok := analysisutil.Unparen(a.Value).(*ast.CallExpr)
		if a.Value == nil && a.Result == 0 {
			call, ok = a.Tuple, a.Tuple != nil
		}
		if !ok || len(call.Args) == 0 {
			return false
		}
		fn := analysisutil.Callee(m.pass.TypesInfo, call)
		switch {
		case analysisutil.IsFunc(fn, "context", "WithCancel"), analysisutil.IsFunc(fn, "context", "WithTimeout"),
			analysisutil.IsFunc(fn, "context", "WithDeadline"), analysisutil.IsFunc(fn, "context", "WithValue"),
			analysisutil.IsFunc(fn, "context", "WithCancelCause"), analysisutil.IsFunc(fn, "context", "WithTimeoutCause"),
			analysisutil.IsFunc(fn, "context", "WithDeadlineCause"):
		default:
			return false
		}
		if parent := call.Args[0]; types.ExprString(parent) != scope && !m.childOf(parent, scope, depth+1) {
			return false
		}
	}
	return true
}
