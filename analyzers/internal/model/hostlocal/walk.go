package hostlocal

import (
	"go/ast"
	"go/token"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// everyCall reports whether ok holds for every call in n. A function
// started with `go` runs beside the caller, not in it (an accept loop for
// the listener just bound): only its arguments are evaluated in place.
func everyCall(n ast.Node, ok func(*ast.CallExpr) bool) bool {
	all := true
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt:
			for _, e := range analysisutil.GoEvaluated(x) {
				ast.Inspect(e, visit)
			}
			return false
		case *ast.CallExpr:
			if !ok(x) {
				all = false
			}
		}
		return all
	}
	ast.Inspect(n, visit)
	return all
}

// everyRepeatedCall is everyCall for the nodes of a retry's attempt,
// leaving out the statements of a block, case or select case (below n)
// that ends in a return calling nothing (`release(); return`, `report(err);
// return err`): they run once, as the retry ends, not in every attempt.
// A return that calls (`return get(ctx, n-1)`: a recursion's next
// attempt) keeps its block.
func everyRepeatedCall(n ast.Node, ok func(*ast.CallExpr) bool) bool {
	all := true
	var visit func(m ast.Node) bool
	visit = func(m ast.Node) bool {
		if !all {
			return false
		}
		if list := analysisutil.StmtList(m); m != n && leavesQuietly(list) {
			// case <-tick.C: ... is the clause, its Comm still runs.
			if cc, isComm := m.(*ast.CommClause); isComm && cc.Comm != nil {
				all = everyCall(cc.Comm, ok)
			}
			// A path inside that goes round first (`if os.IsNotExist(err)
			// { w.Wait(); continue }` before the return) repeats what
			// comes up to it.
			for _, st := range list[:lastGoingRound(list)+1] {
				if all {
					ast.Inspect(st, visit)
				}
			}
			return false
		}
		if _, isGo := m.(*ast.GoStmt); isGo {
			all = everyCall(m, ok)
			return false
		}
		if lit, isLit := m.(*ast.FuncLit); isLit {
			// A literal's returns end it, not the retry: when it runs,
			// all of it runs (given to a helper that calls it).
			all = everyCall(lit.Body, ok)
			return false
		}
		if c, isCall := m.(*ast.CallExpr); isCall && !ok(c) {
			all = false
		}
		return all
	}
	ast.Inspect(n, visit)
	return all
}

// lastGoingRound returns the index of the last statement of list that
// holds a `continue` or a `goto` (outside loops and closures nested in
// it): a path that goes round; -1 when none does.
func lastGoingRound(list []ast.Stmt) int {
	last := -1
	for i, st := range list {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
				return false
			case *ast.BranchStmt:
				if x.Tok == token.CONTINUE || x.Tok == token.GOTO {
					last = i
				}
			}
			return last != i
		})
	}
	return last
}

// leavesQuietly reports whether list ends in a return whose results call
// nothing.
func leavesQuietly(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	ret, ok := list[len(list)-1].(*ast.ReturnStmt)
	if !ok {
		return false
	}
	calls := false
	for _, e := range ret.Results {
		ast.Inspect(e, func(n ast.Node) bool {
			if _, isCall := n.(*ast.CallExpr); isCall {
				calls = true
			}
			return !calls
		})
	}
	return !calls
}
