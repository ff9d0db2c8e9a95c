package model

// The guards of a recursive retry's self-call: whether they identify
// the failure, test a conflict or test a success.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// identifiedGuard reports whether the call at the end of path runs only
// on the true branch of a test that picks out one failure of opErrs: an
// if or a case whose condition, or one of its conjuncts, compares the
// error with an error value or tests its type (err == errChunked,
// errors.Is, errors.As, errors.AsType).
func (in *interp) identifiedGuard(path *callPath, opErrs map[types.Object]bool) bool {
	for parent, child := range path.up {
		switch p := parent.(type) {
		case *ast.IfStmt:
			if child == p.Body && (in.identifies(p.Cond, opErrs) || in.condIdentifies(p.Cond, opErrs)) {
				return true
			}
		case *ast.CaseClause:
			if slices.ContainsFunc(p.List, func(e ast.Expr) bool { return in.identifies(e, opErrs) || in.condIdentifies(e, opErrs) }) {
				return true
			}
		}
	}
	return false
}

// condIdentifies reports whether cond, judged as a loop's condition is
// (cond.go), holds only where it identified the failure of an error in
// opErrs: by its text, a classifier of the package (IdentifyFact), a
// comparison with an error value.
func (in *interp) condIdentifies(cond ast.Expr, opErrs map[types.Object]bool) bool {
	s := &state{}
	for obj := range opErrs {
		s.setSlot(slot{key: obj})
	}
	budget, steps, aborted := in.budget, in.steps, in.aborted
	in.budget, in.aborted = stepsPerNode*10, false
	ts, _ := in.cond(cond, s)
	ok := !in.aborted && len(ts) > 0
	for _, t := range ts {
		ok = ok && t.identified
	}
	in.budget, in.steps, in.aborted = budget, steps, aborted
	return ok
}

// identifies reports whether cond, or a conjunct of it, is true only for
// one kind of failure of an error in opErrs.
func (in *interp) identifies(cond ast.Expr, opErrs map[types.Object]bool) bool {
	isErr := func(e ast.Expr) bool {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		return ok && opErrs[in.info.Uses[id]]
	}
	switch c := analysisutil.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LAND:
			return in.identifies(c.X, opErrs) || in.identifies(c.Y, opErrs)
		case token.EQL:
			return isErr(c.X) && !in.isNil(c.Y) && in.isSentinel(c.Y) || isErr(c.Y) && !in.isNil(c.X) && in.isSentinel(c.X)
		}
	case *ast.CallExpr:
		fn := analysisutil.Callee(in.info, c)
		if fn == nil || analysisutil.PkgPath(fn) != "errors" || len(c.Args) == 0 || !isErr(c.Args[0]) {
			return false
		}
		switch fn.Name() {
		case "Is", "As":
			return len(c.Args) == 2
		case "AsType":
			return len(c.Args) == 1
		}
	}
	return false
}

// testsConflict reports whether cond calls a Conflict check of the
// catalog or compares with a Conflict error.
func testsConflict(info *types.Info, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			found = isConflictCheck(analysisutil.Callee(info, x))
		case *ast.Ident, *ast.SelectorExpr:
			found = errorRole(info, x.(ast.Expr)) == catalog.Conflict
		}
		return !found
	})
	return found
}

// testsSuccess reports whether cond is err == nil (possibly among
// conjuncts).
func testsSuccess(info *types.Info, cond ast.Expr) bool {
	be, ok := analysisutil.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if be.Op == token.LAND {
		return testsSuccess(info, be.X) || testsSuccess(info, be.Y)
	}
	return equalsNil(info, be)
}

// equalsNil reports whether be is x == nil (or nil == x).
func equalsNil(info *types.Info, be *ast.BinaryExpr) bool {
	isNil := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		return ok && tv.IsNil()
	}
	return be.Op == token.EQL && (isNil(be.X) || isNil(be.Y))
}

// falseMeansFailure reports whether cond is false only where an error is
// not nil: err == nil, or a disjunction with it (`err == nil || attempt
// >= 4`): past `if cond { return }` the operation failed.
func falseMeansFailure(info *types.Info, cond ast.Expr) bool {
	be, ok := analysisutil.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if be.Op == token.LOR {
		return falseMeansFailure(info, be.X) || falseMeansFailure(info, be.Y)
	}
	return equalsNil(info, be)
}
