package timeouts

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model"
)

// attemptGets reports whether a call of an attempt of the retry r is
// given the context named scope itself as an argument
// (`c.call(ctx, req)`): once the context is done, that attempt fails at
// once, with no response.
func (m *layer) attemptGets(r *model.Retry, scope string) bool {
	found := false
	for _, op := range r.Ops {
		ast.Inspect(op, func(n ast.Node) bool {
			if found {
				return false
			}
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if fn := analysisutil.Callee(m.pass.TypesInfo, x); fn != nil && analysisutil.PkgPath(fn) == "context" {
					// context.WithoutCancel(ctx): a context of its own.
					return false
				}
				for _, a := range x.Args {
					if isContextType(m.pass.TypesInfo.TypeOf(a)) && types.ExprString(a) == scope {
						found = true
					}
				}
			}
			return true
		})
	}
	return found
}
