package rediscmd

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// What a function does with a command's reply, for the checks that ask
// whether one command depends on another.

// replyValues lists the variables that hold the values of c's reply,
// not its error.
func (c *Command) replyValues() []types.Object {
	var vals []types.Object
	for _, v := range c.Reply {
		if !analysisutil.IsErrorType(v.Type()) {
			vals = append(vals, v)
		}
	}
	return vals
}

// ValueHeld reports whether the value of c's reply is held in variables
// (Reply, not counting its error) that ValueCompared can follow.
func (c *Command) ValueHeld() bool { return len(c.replyValues()) > 0 }

// ValueCompared reports whether body compares a variable holding the
// value of c's reply (`if n >= 60`, `return n <= limit`).
func (c *Command) ValueCompared(info *types.Info, body ast.Node) bool {
	vars := c.replyValues()
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if !ok || found {
			return !found
		}
		switch be.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
			for _, side := range []ast.Expr{be.X, be.Y} {
				ast.Inspect(side, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && slices.Contains(vars, info.Uses[id]) {
						found = true
					}
					return !found
				})
			}
		}
		return !found
	})
	return found
}

// Tests reports whether call, in body, runs only under an if, a switch
// or a loop condition that reads c's reply (`if n == 1 {
// rdb.ExpireNX(...) }`): it is not sent on every request.
func (c *Command) Tests(info *types.Info, body ast.Node, call *ast.CallExpr) bool {
	if body == nil {
		return false
	}
	reads := func(e ast.Node) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && slices.Contains(c.Reply, info.Uses[id]) {
				found = true
			}
			return !found
		})
		return found
	}
	under := false
	ast.Inspect(body, func(n ast.Node) bool {
		if under || n == nil || !(n.Pos() <= call.Pos() && call.End() <= n.End()) {
			return false
		}
		switch x := n.(type) {
		case *ast.IfStmt:
			if x.Cond != nil && reads(x.Cond) && !(x.Cond.Pos() <= call.Pos() && call.End() <= x.Cond.End()) {
				under = true
			}
		case *ast.SwitchStmt:
			if x.Tag != nil && reads(x.Tag) {
				under = true
			}
		case *ast.CaseClause:
			for _, e := range x.List {
				if reads(e) {
					under = true
				}
			}
		case *ast.ForStmt:
			if x.Cond != nil && reads(x.Cond) {
				under = true
			}
		}
		return !under
	})
	return under
}
