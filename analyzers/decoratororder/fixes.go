package decoratororder

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/breakers"
)

// orderFix swaps a failsafe-go executor's retry policy and circuit
// breaker, both arguments of one With call, so that the breaker is listed
// first (outermost).
func orderFix(pass *analysis.Pass, o *breakers.Order) *analysis.SuggestedFix {
	rt, bt := analysisutil.Text(pass, o.Retry), analysisutil.Text(pass, o.Breaker)
	if rt == "" || bt == "" {
		return nil
	}
	return &analysis.SuggestedFix{Message: "List the circuit breaker before the retry policy (outermost first)", TextEdits: []analysis.TextEdit{
		{Pos: o.Retry.Pos(), End: o.Retry.End(), NewText: []byte(bt)},
		{Pos: o.Breaker.Pos(), End: o.Breaker.End(), NewText: []byte(rt)},
	}}
}

// breakerRow returns the catalog's Breaker row of the function call calls.
func breakerRow(info *types.Info, call *ast.CallExpr) *catalog.Row {
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return nil
	}
	row := catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
	if row == nil || row.Role != catalog.Breaker {
		return nil
	}
	return row
}

// swapFix builds the fix for the canonical shape: a library retry whose
// operation is a closure that only returns a breaker call,
//
//	R(..., func(ctx) error { return B(..., X) }, ...)
//
// becomes
//
//	B(..., func(ctx) error { return R(..., X, ...) })
//
// when the closure, X and both calls have matching types.
func swapFix(pass *analysis.Pass, r *model.Retry) *analysis.SuggestedFix {
	info := pass.TypesInfo
	call, ok := r.Node.(*ast.CallExpr)
	if !ok || r.Row == nil || r.Row.OpArg >= len(call.Args) || r.Row.Recv == "Executor" {
		return nil
	}
	lit, ok := analysisutil.Unparen(call.Args[r.Row.OpArg]).(*ast.FuncLit)
	if !ok || len(lit.Body.List) != 1 {
		return nil
	}
	ret, ok := lit.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	bcall, ok := analysisutil.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok {
		return nil
	}
	brow := breakerRow(info, bcall)
	if brow == nil || brow.OpArg < 0 || brow.OpArg >= len(bcall.Args) {
		return nil
	}
	x := bcall.Args[brow.OpArg]
	if !types.Identical(info.TypeOf(lit), info.TypeOf(x)) || !types.Identical(info.TypeOf(call), info.TypeOf(bcall)) {
		return nil
	}
	sig := info.TypeOf(lit).(*types.Signature)
	if sig.Results().Len() == 1 && !types.Identical(sig.Results().At(0).Type(), info.TypeOf(call)) {
		return nil
	}
	// The breaker call's other arguments may use the closure's parameters
	// only under a name the retry call also uses (ctx).
	outerNames := map[string]bool{}
	for _, a := range call.Args {
		if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok {
			outerNames[id.Name] = true
		}
	}
	params := map[types.Object]bool{}
	for _, f := range lit.Type.Params.List {
		for _, n := range f.Names {
			params[info.Defs[n]] = true
		}
	}
	for i, a := range bcall.Args {
		if i == brow.OpArg {
			continue
		}
		bad := false
		ast.Inspect(a, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && params[info.Uses[id]] && !outerNames[id.Name] {
				bad = true
			}
			return !bad
		})
		if bad {
			return nil
		}
	}
	// X must not use the closure's parameters either.
	usesParam := false
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && params[info.Uses[id]] {
			usesParam = true
		}
		return !usesParam
	})
	if usesParam {
		return nil
	}
	args := func(c *ast.CallExpr, i int, repl string) string {
		var parts []string
		for j, a := range c.Args {
			if j == i {
				parts = append(parts, repl)
			} else {
				parts = append(parts, analysisutil.Text(pass, a))
			}
		}
		s := strings.Join(parts, ", ")
		if c.Ellipsis.IsValid() {
			s += "..."
		}
		return s
	}
	inner := analysisutil.Text(pass, call.Fun) + "(" + args(call, r.Row.OpArg, analysisutil.Text(pass, x)) + ")"
	newLit := "func" + strings.TrimPrefix(analysisutil.Text(pass, lit.Type), "func") + " {\n\treturn " + inner + "\n}"
	outer := analysisutil.Text(pass, bcall.Fun) + "(" + args(bcall, brow.OpArg, newLit) + ")"
	return &analysis.SuggestedFix{Message: "Put the circuit breaker outside the retry", TextEdits: []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: []byte(outer)}}}
}
