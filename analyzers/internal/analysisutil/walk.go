package analysisutil

import "go/ast"

// AnyIn reports whether pred holds for some node of roots, not looking
// inside function literals (their code runs elsewhere, if at all).
func AnyIn(roots []ast.Node, pred func(ast.Node) bool) bool {
	found := false
	for _, root := range roots {
		ast.Inspect(root, func(n ast.Node) bool {
			if found || n == nil {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok && n != root {
				return false
			}
			if pred(n) {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
