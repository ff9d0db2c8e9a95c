package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// goesRoundBetween reports whether a continue or a goto of the loop lies
// between from and to: a pass may go round after the operation without
// reaching the write at to (a failure resent as it was, while only a
// success moves the request on, as a long poll's index does).
func goesRoundBetween(nodes []ast.Node, from, to token.Pos) bool {
	found := false
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if found || n == nil || n.End() <= from || n.Pos() >= to {
				return false
			}
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				found = x.Tok == token.CONTINUE || x.Tok == token.GOTO
			}
			return !found
		})
	}
	return found
}

// followsResponse reports whether the loop aims the request an operation
// sends at what an earlier attempt answered: it writes into what the
// operation's input points at (a field reached through it, or through a
// function of the package that assigns through that parameter: see
// aims.pointedAt) a value that mentions a result of that operation
// (`req.URL = resp.Location()`, `follow(req, resp, &left)`). The next pass sends
// another request, where the response sent it: a redirect followed, not
// the failed request sent again. A loop that may go round between the
// operation and the write sends the same request again on that path: a
// retry still.
func (m *builder) followsResponse(nodes []ast.Node, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	isOp := map[*ast.CallExpr]bool{}
	for _, c := range ops {
		isOp[c] = true
	}
	// The operations whose results the loop assigns to each variable.
	resultOf := map[types.Object][]*ast.CallExpr{}
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
						resultOf[info.ObjectOf(id)] = append(resultOf[info.ObjectOf(id)], c)
					}
				}
			}
			return true
		})
	}
	if len(resultOf) == 0 {
		return false
	}
	aimed := m.newAims(nodes)
	// fromResponses, per variable an operation is given: the values the
	// loop aims it with, by the operation whose results each mentions.
	fromResponses := map[*types.Var]map[*ast.CallExpr][]ast.Expr{}
	for _, call := range ops {
		for _, a := range call.Args {
			// req, or the request a method of it derives
			// (req.WithContext(ctx): a value of the receiver's type).
			in := analysisutil.Unparen(a)
			if c, ok := in.(*ast.CallExpr); ok {
				if sel, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr); ok && types.Identical(info.TypeOf(c), info.TypeOf(sel.X)) {
					in = sel.X
				}
			}
			v, vals := aimed.pointedAt(in)
			if v == nil {
				continue
			}
			byCall, ok := fromResponses[v]
			if !ok {
				byCall = map[*ast.CallExpr][]ast.Expr{}
				for _, e := range vals {
					ast.Inspect(e, func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok {
							for _, c := range resultOf[info.Uses[id]] {
								byCall[c] = append(byCall[c], e)
							}
						}
						return true
					})
				}
				fromResponses[v] = byCall
			}
			// A value made from what this very call answered.
			for _, e := range byCall[call] {
				if !goesRoundBetween(nodes, call.End(), e.Pos()) {
					return true
				}
			}
		}
	}
	return false
}
