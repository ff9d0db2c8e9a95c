package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// SentOnce reports whether the send call, in the body of the loop retry
// r, runs at most once per run of the loop: once it is made, every path
// leaves the loop (`r, err := c.Post(...); if err != nil { return err };
// ...; break`), so no attempt after it sends it again. A send followed by
// anything that can go round (a continue of the loop, a fall through to
// the end of the body, a goto) is sent again.
func SentOnce(info *types.Info, r *Retry, call *ast.CallExpr) bool {
	var body *ast.BlockStmt
	label := r.Label
	switch loop := r.Node.(type) {
	case *ast.ForStmt:
		body = loop.Body
	case *ast.RangeStmt:
		body = loop.Body
	default:
		return false
	}
	// The chain of nodes from the loop body down to the call, found by
	// descending only into the nodes that span it.
	var path []ast.Node
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		if path != nil || n.Pos() > call.Pos() || n.End() < call.End() {
			return false
		}
		if n == call {
			path = append(slices.Clip(stack), n)
			return false
		}
		return true
	})
	if path == nil {
		return false
	}
	// Walk out from the call: in each statement list, the statement that
	// holds the call must not go round, and the statements after it must
	// end in an exit before anything goes round; a list that ends without
	// an exit falls into the enclosing one.
	for i := len(path) - 2; i >= 0; i-- {
		if _, isLit := path[i].(*ast.FuncLit); isLit {
			return false
		}
		list := analysisutil.StmtList(path[i])
		if list == nil {
			continue
		}
		holder := path[i+1]
		if goesRound(holder, label) {
			return false
		}
		// A switch, select or loop between this list and r's body owns
		// a bare break.
		nested := false
		for _, p := range path[1:max(i, 1)] {
			switch p.(type) {
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.ForStmt, *ast.RangeStmt:
				nested = true
			}
		}
		if st, ok := holder.(ast.Stmt); ok && leaves(info, st, label, nested) {
			return true // return c.Post(...)
		}
		after := false
		for _, st := range list {
			if ast.Node(st) == holder {
				after = true
				continue
			}
			if !after {
				continue
			}
			if goesRound(st, label) {
				return false
			}
			if leaves(info, st, label, nested) {
				return true
			}
		}
		if path[i] == body {
			return false // falls to the end of the body: the next attempt
		}
	}
	return false
}

// goesRound reports whether n holds a continue or goto that can start
// the loop's next pass: a bare continue outside a nested loop, a
// continue naming the loop's label, or any goto.
func goesRound(n ast.Node, label string) bool {
	found := false
	var walk func(n ast.Node, inLoop bool)
	walk = func(n ast.Node, inLoop bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			if found {
				return false
			}
			switch x := c.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if c != n {
					walk(c, true)
					return false
				}
			case *ast.BranchStmt:
				switch x.Tok {
				case token.GOTO:
					found = true
				case token.CONTINUE:
					if x.Label == nil && !inLoop || x.Label != nil && x.Label.Name == label && label != "" {
						found = true
					}
				}
			}
			return true
		})
	}
	walk(n, false)
	return found
}

// leaves reports whether st always leaves the loop: a return, a panic, a
// break of the loop (bare, when no switch, select or loop is in between,
// or naming its label).
func leaves(info *types.Info, st ast.Stmt, label string, nested bool) bool {
	switch x := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		if x.Tok != token.BREAK {
			return false
		}
		if x.Label == nil {
			return !nested
		}
		return label != "" && x.Label.Name == label
	case *ast.ExprStmt:
		if c, ok := analysisutil.Unparen(x.X).(*ast.CallExpr); ok {
			if id, ok := analysisutil.Unparen(c.Fun).(*ast.Ident); ok {
				if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
					return true
				}
			}
		}
	}
	return false
}
