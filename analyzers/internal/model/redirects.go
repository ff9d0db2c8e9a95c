package model

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// followsResponse reports whether the loop aims the request an operation
// sends at what an earlier attempt answered: it writes into what the
// operation's input points at (a field reached through it, or through a
// function of the package that assigns through that parameter: see
// flowPointedAt) a value that mentions an operation's result (`req.URL =
// resp.Location()`, `follow(req, resp, &left)`). The next pass sends
// another request, where the response sent it: a redirect followed, not
// the failed request sent again.
func (m *builder) followsResponse(nodes []ast.Node, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	isOp := map[*ast.CallExpr]bool{}
	for _, c := range ops {
		isOp[c] = true
	}
	// The variables the loop assigns an operation's results to.
	outcomes := map[types.Object]bool{}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 {
				return true
			}
			if c, ok := analysisutil.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && isOp[c] {
				for _, l := range as.Lhs {
					if id, ok := analysisutil.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) != nil {
						outcomes[info.ObjectOf(id)] = true
					}
				}
			}
			return true
		})
	}
	if len(outcomes) == 0 {
		return false
	}
	fromResponse := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && outcomes[info.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	found := false
	for _, call := range ops {
		for _, a := range call.Args {
			// req, or the request a method of it derives (req.WithContext(ctx)).
			in := analysisutil.Unparen(a)
			if c, ok := in.(*ast.CallExpr); ok {
				if sel, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr); ok {
					in = sel.X
				}
			}
			m.flowPointedAt(in, nodes, func(e ast.Expr) {
				found = found || fromResponse(e)
			})
			if found {
				return true
			}
		}
	}
	return false
}
