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

// FailuresEnd reports whether every failure of call, made in the
// operation that the library retry r runs (a function literal: its body
// is among r.Ops), ends the retry: the error the call returns is tested
// at once (`if err != nil`, in the statement after the call or in the if
// that makes it), and that branch ends in a return of the library's
// Permanent marker (`z, err := c.find(ctx, q); if err != nil { return
// nil, backoff.Permanent(err) }`). Whatever makes the operation fail after
// that is the code's own reading of an answer the call gave: the call
// is made again only after it answered. A call that hands back an
// *http.Response is not one: its status, a failure of the send, is
// read after it.
func FailuresEnd(info *types.Info, r *Retry, call *ast.CallExpr) bool {
	if r.Kind != LibraryRetry {
		return false
	}
	if !failing(info, call) || returnsResponse(info, call) {
		return false
	}
	for _, op := range r.Ops {
		body, ok := op.(*ast.BlockStmt) // the function literal's body
		if !ok || call.Pos() < body.Pos() || call.End() > body.End() {
			continue
		}
		found := false
		ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
			if found || n.Pos() > call.Pos() || n.End() < call.End() {
				return false
			}
			if _, isLit := n.(*ast.FuncLit); isLit {
				return false // run by whoever it is given to
			}
			switch st := n.(type) {
			case *ast.IfStmt:
				if as, ok := st.Init.(*ast.AssignStmt); ok && isCallOf(as, call) {
					found = failureEnds(info, as, st)
					return false
				}
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				list := analysisutil.StmtList(n)
				for i, s := range list {
					if as, ok := s.(*ast.AssignStmt); ok && isCallOf(as, call) {
						if i+1 < len(list) {
							if next, ok := list[i+1].(*ast.IfStmt); ok && next.Init == nil {
								found = failureEnds(info, as, next)
							}
						}
						return false
					}
				}
			}
			return true
		})
		return found
	}
	return false
}

// isCallOf reports whether as gives the results of call alone.
func isCallOf(as *ast.AssignStmt, call *ast.CallExpr) bool {
	return len(as.Rhs) == 1 && analysisutil.Unparen(as.Rhs[0]) == ast.Expr(call)
}

// failureEnds reports whether the if st tests the error that as gives
// (its last left-hand side) for `!= nil` and ends that branch in a
// return whose last result is a call of a Permanent marker.
func failureEnds(info *types.Info, as *ast.AssignStmt, st *ast.IfStmt) bool {
	id, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
	if !ok {
		return false
	}
	v := info.ObjectOf(id)
	be, ok := analysisutil.Unparen(st.Cond).(*ast.BinaryExpr)
	if v == nil || !ok || be.Op != token.NEQ {
		return false
	}
	isV := func(e ast.Expr) bool {
		x, ok := analysisutil.Unparen(e).(*ast.Ident)
		return ok && info.Uses[x] == v
	}
	if !(isV(be.X) && info.Types[be.Y].IsNil() || isV(be.Y) && info.Types[be.X].IsNil()) {
		return false
	}
	if len(st.Body.List) == 0 {
		return false
	}
	ret, ok := st.Body.List[len(st.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	c, ok := analysisutil.Unparen(ret.Results[len(ret.Results)-1]).(*ast.CallExpr)
	if !ok {
		return false
	}
	return isPermanentCall(info, c)
}
