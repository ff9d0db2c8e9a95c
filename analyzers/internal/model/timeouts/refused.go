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
// (`c.call(ctx, req)`): once the context is done, that attempt fails at
// once, with no response.
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
			return isContextType(info.TypeOf(a)) && types.ExprString(a) == scope
		})
	})
}
