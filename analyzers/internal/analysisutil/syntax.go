package analysisutil

import (
	"go/ast"
	"go/token"
	"go/types"
)

// LeavesBlock reports whether b always leaves the statement list it is
// in: it ends in a return, or a break, continue or goto.
func LeavesBlock(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok != token.FALLTHROUGH
	}
	return false
}

// AssignedIn reports whether body gives v a value: an assignment, an
// op-assignment, ++ or --, or taking its address.
func AssignedIn(info *types.Info, body ast.Node, v *types.Var) bool {
	is := func(e ast.Expr) bool {
		id, ok := Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				found = found || is(l)
			}
		case *ast.IncDecStmt:
			found = found || is(x.X)
		case *ast.UnaryExpr:
			found = found || x.Op == token.AND && is(x.X)
		}
		return !found
	})
	return found
}

// ParamIndex returns the index of the parameter of fn that e names, or
// -1.
func ParamIndex(info *types.Info, fn *types.Func, e ast.Expr) int {
	id, ok := Unparen(e).(*ast.Ident)
	if !ok || fn == nil {
		return -1
	}
	obj := info.Uses[id]
	params := fn.Type().(*types.Signature).Params()
	for i := range params.Len() {
		if params.At(i) == obj {
			return i
		}
	}
	return -1
}

// Split flattens e over op (&& or ||), parentheses removed: the
// conjuncts or disjuncts of a condition.
func Split(e ast.Expr, op token.Token) []ast.Expr {
	e = Unparen(e)
	if be, ok := e.(*ast.BinaryExpr); ok && be.Op == op {
		return append(Split(be.X, op), Split(be.Y, op)...)
	}
	return []ast.Expr{e}
}

// Deref returns what the pointer type t points to, or t.
func Deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// CommRecv returns the channel a select case receives from (`case
// <-ch:`, `case v := <-ch:`, `case v, ok = <-ch:`), or nil when the case
// sends or is the default.
func CommRecv(comm ast.Stmt) ast.Expr {
	var x ast.Expr
	switch c := comm.(type) {
	case *ast.ExprStmt:
		x = c.X
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			x = c.Rhs[0]
		}
	}
	if u, ok := Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X
	}
	return nil
}

// StmtList returns the statements n holds in order: a block's, a case
// clause's or a select case's; nil for any other node.
func StmtList(n ast.Node) []ast.Stmt {
	switch x := n.(type) {
	case *ast.BlockStmt:
		return x.List
	case *ast.CaseClause:
		return x.Body
	case *ast.CommClause:
		return x.Body
	}
	return nil
}

// LeavesLoop reports whether the statements end by leaving the loop
// they are in: a return, a goto or a labeled break, or an
// unlabeled break outside a select (inSelect: there it leaves only the
// select).
func LeavesLoop(list []ast.Stmt, inSelect bool) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		switch s.Tok {
		case token.GOTO:
			return true
		case token.BREAK:
			return s.Label != nil || !inSelect
		}
	}
	return false
}
