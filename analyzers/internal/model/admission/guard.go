package admission

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// Guard is what decides whether a call runs: the conditions of the ifs
// whose branches hold it, their variables and calls, the calls assigned
// to those variables in the function, and the function's body.
type Guard struct {
	Conds []ast.Expr
	Vars  map[types.Object]bool
	Calls []*ast.CallExpr
	Body  *ast.BlockStmt
}

// GuardOf returns the guard of call in fn (an *ast.FuncDecl or
// *ast.FuncLit), nil if fn has no body.
func GuardOf(pass *analysis.Pass, fn ast.Node, call *ast.CallExpr) *Guard {
	conds, body := guards(fn, call)
	if body == nil {
		return nil
	}
	info := pass.TypesInfo
	g := &Guard{Conds: conds, Vars: map[types.Object]bool{}, Body: body}
	for _, c := range conds {
		ast.Inspect(c, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if v, ok := info.Uses[n].(*types.Var); ok {
					g.Vars[v] = true
				}
			case *ast.CallExpr:
				g.Calls = append(g.Calls, n)
			case *ast.FuncLit:
				return false
			}
			return true
		})
	}
	if len(g.Vars) == 0 {
		return g
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		call, ok := analysisutil.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && (g.Vars[info.Defs[id]] || g.Vars[info.Uses[id]]) {
				g.Calls = append(g.Calls, call)
				break
			}
		}
		return true
	})
	return g
}

// guards returns the conditions of the if statements of fn (not of the
// function literals inside it) whose then or else branch holds call, and
// fn's body.
func guards(fn ast.Node, call *ast.CallExpr) ([]ast.Expr, *ast.BlockStmt) {
	var body *ast.BlockStmt
	switch f := fn.(type) {
	case *ast.FuncDecl:
		body = f.Body
	case *ast.FuncLit:
		body = f.Body
	}
	if body == nil {
		return nil, nil
	}
	var conds []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || !(n.Pos() <= call.Pos() && call.End() <= n.End()) {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if n.Body.Pos() <= call.Pos() && call.End() <= n.Body.End() || n.Else != nil && n.Else.Pos() <= call.Pos() && call.End() <= n.Else.End() {
				conds = append(conds, n.Cond)
			}
		}
		return true
	})
	return conds, body
}
