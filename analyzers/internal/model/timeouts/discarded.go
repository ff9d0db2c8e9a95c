package timeouts

import (
	"go/ast"

	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// DiscardedCarrier is a call of a carrier (a catalog ContextCarrier row,
// or a function with a CarrierFact) whose value is thrown away:
// `req.WithContext(ctx)` as a statement makes a new request carrying ctx
// and drops it, so the request that is sent keeps the context it was
// made with, and ctx's deadline and cancellation reach nothing.
type DiscardedCarrier struct {
	Stmt *ast.ExprStmt
	Call *ast.CallExpr
	Ctx  ast.Expr // the context argument
}

// findDiscarded finds the carriers called as statements, outside test
// files.
func (m *layer) findDiscarded(t *Timeouts) {
	root := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root()
	for cur := range root.Preorder((*ast.ExprStmt)(nil)) {
		st := cur.Node().(*ast.ExprStmt)
		if analysisutil.IsTestFile(m.pass, st.Pos()) {
			continue
		}
		call, ok := analysisutil.Unparen(st.X).(*ast.CallExpr)
		if !ok {
			continue
		}
		if i := m.carrierArg(call); i >= 0 && i < len(call.Args) && isContextType(m.pass.TypesInfo.TypeOf(call.Args[i])) {
			t.Discarded = append(t.Discarded, &DiscardedCarrier{Stmt: st, Call: call, Ctx: call.Args[i]})
		}
	}
}
