package libconfig

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// stopsOnCancel reports whether the operation of the library retry call
// (argument OpArg of row), a function literal, ends the retry once a
// context is done: it returns a Permanent error (backoff.Permanent) that
// carries a context's error (`backoff.Permanent(ctx.Err())`, or
// context.Canceled), or that it returns on a branch taken only then
// (`if ctx.Err() != nil`, a select case receiving from ctx.Done()). Such
// a retry is bounded by that context, as one wrapped in WithContext is.
// So is one that returns it under a condition on state the attempt does
// not make (`if c.Closed() { return backoff.Permanent(err) }`): no
// variable the literal assigns, none of the attempt's results, so the
// retry ends when something outside it says so (a Close, a shutdown).
func (rd *reader) stopsOnCancel(call *ast.CallExpr, row *catalog.Row) bool {
	if row.OpArg < 0 || row.OpArg >= len(call.Args) {
		return false
	}
	for _, o := range rd.vals.Trace(call.Args[row.OpArg]) {
		lit, ok := analysisutil.Unparen(o.Expr).(*ast.FuncLit)
		if !ok {
			continue
		}
		found := false
		ast.PreorderStack(lit.Body, nil, func(n ast.Node, stack []ast.Node) bool {
			if found {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			prow := catalogRow(analysisutil.Callee(rd.pass.TypesInfo, c))
			if prow == nil || prow.Role != catalog.Permanent {
				return true
			}
			if rd.mentionsDone(c) {
				found = true
				return false
			}
			for i := len(stack) - 1; i >= 0; i-- {
				switch p := stack[i].(type) {
				case *ast.IfStmt:
					if (rd.mentionsDone(p.Cond) || rd.outsideState(p.Cond, lit)) && i+1 < len(stack) && stack[i+1] == p.Body {
						found = true
					}
				case *ast.CommClause:
					if p.Comm != nil && rd.mentionsDone(p.Comm) {
						found = true
					}
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// mentionsDone reports whether n asks a context whether it is done (its
// Err or Done) or names context.Canceled or context.DeadlineExceeded.
func (rd *reader) mentionsDone(n ast.Node) bool {
	info := rd.pass.TypesInfo
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			switch obj := info.Uses[x.Sel].(type) {
			case *types.Func:
				found = analysisutil.IsMethod(obj, "context", "Context", "Err") || analysisutil.IsMethod(obj, "context", "Context", "Done")
			case *types.Var:
				found = analysisutil.IsPkgVar(obj, "context", "Canceled") || analysisutil.IsPkgVar(obj, "context", "DeadlineExceeded")
			}
		}
		return !found
	})
	return found
}

// outsideState reports whether cond, a condition in lit, reads state
// the attempt does not make: it is no constant, and it reads variables,
// none of them declared or assigned in lit (the attempt's error, its
// response, a counter it steps), through no call given such a variable.
func (rd *reader) outsideState(cond ast.Expr, lit *ast.FuncLit) bool {
	info := rd.pass.TypesInfo
	if tv, ok := info.Types[cond]; ok && tv.Value != nil {
		return false
	}
	written := map[types.Object]bool{}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if obj := analysisutil.ReferredObject(info, l); obj != nil {
					written[obj] = true
				}
			}
		case *ast.IncDecStmt:
			if obj := analysisutil.ReferredObject(info, x.X); obj != nil {
				written[obj] = true
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				written[info.Defs[id]] = true
			}
		}
		return true
	})
	reads, inner := false, false
	ast.Inspect(cond, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		if v, ok := info.Uses[id].(*types.Var); ok {
			reads = true
			if written[v] || lit.Pos() <= v.Pos() && v.Pos() < lit.End() {
				inner = true
			}
		}
		return true
	})
	return reads && !inner
}
