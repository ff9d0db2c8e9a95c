package model

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// opVerdict is what a path knows of a bool an operation returns just
// before its error (`retry, err = run()`, `r, retry, err = run()`): the
// operation's own answer about its outcome ("go again" or "done"), not a
// partial result. Testing it examines the outcome, direction unknown, as
// a predicate over the error would. The path is marked (state.verdict):
// one that goes round on the verdict without waiting is no retry (an
// iterator's `more, err := it.Next()`), one that waits first is.
type opVerdict struct {
	err types.Object  // the variable holding the operation's error
	op  *ast.CallExpr // the operation
}

// ownVerdict reports whether result i of an operation bound to lhs is a
// bool given just before its error, both assigned.
func ownVerdict(lhs []ast.Expr, res []types.Type, i int) bool {
	n := len(res)
	if n < 2 || i != n-2 || len(lhs) != n || !isBool(res[i]) || !analysisutil.IsErrorType(res[n-1]) {
		return false
	}
	id, ok := analysisutil.Unparen(lhs[n-1]).(*ast.Ident)
	return ok && id.Name != "_"
}

// cond splits s by the verdict: both ways the outcome of its operation
// has been examined, if the error variable still holds that outcome.
func (v opVerdict) cond(s *state) (ts, fs []*state) {
	sl, ok := s.slot(v.err)
	if !ok || sl.op != v.op {
		return []*state{s}, []*state{s}
	}
	if sl.status() != stUnknown {
		return []*state{s}, []*state{s} // examined already: adds nothing
	}
	mark := func(x *state) []*state {
		x = refine(x, v.err, stChecked)
		if x == nil {
			return nil
		}
		x.verdict = true
		return []*state{x}
	}
	return mark(s), mark(s)
}

// outcomeOfPass reports whether obj, used by the assignment as, holds
// an outcome of the same pass: an earlier statement of as's own block
// assigned it an operation's results (`resp, err = c.Do(req)` then
// `result, err = handle(resp, err)`). Such an assignment converts this
// pass's outcome; it walks no chain from the previous one.
func (in *interp) outcomeOfPass(nodes []ast.Node, as *ast.AssignStmt, obj types.Object) bool {
	found := false
	check := func(list []ast.Stmt) {
		idx := -1
		for i, st := range list {
			if st == as {
				idx = i
			}
		}
		for _, st := range list[:max(idx, 0)] {
			prev, ok := st.(*ast.AssignStmt)
			if !ok || len(prev.Rhs) != 1 {
				continue
			}
			call, ok := analysisutil.Unparen(prev.Rhs[0]).(*ast.CallExpr)
			if !ok || !in.isOp(call) {
				continue
			}
			for _, l := range prev.Lhs {
				if in.objOf(l) == obj {
					found = true
				}
			}
		}
	}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if found {
				return false
			}
			switch b := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BlockStmt:
				check(b.List)
			case *ast.CaseClause:
				check(b.Body)
			case *ast.CommClause:
				check(b.Body)
			}
			return true
		})
	}
	return found
}
