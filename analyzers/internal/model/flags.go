package model

// Flags: a go-round test that consumes a flag another goroutine raises.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// flagEvents finds, in the judged loop's region, the tests that consume
// a flag of package sync/atomic kept outside the function (a field or a
// package variable): `f.Swap(false)` on an atomic.Bool, or a
// compare-and-swap from a non-zero constant to zero (`f.CompareAndSwap(true,
// false)`, `atomic.CompareAndSwapInt32(&f, 1, 0)`), on a flag the loop
// only consumes or loads, never raises. Such a test is true once for each
// time another goroutine raised the flag: a pass that goes round on it
// goes round because that goroutine acted (swapped the reader the loop
// reads, asked for another run), once per action, not because an attempt
// failed (see cond0).
func flagEvents(info *types.Info, region ast.Node) map[*ast.CallExpr]bool {
	var consumes []*ast.CallExpr
	var keys []types.Object
	raised := map[types.Object]bool{}
	ast.Inspect(region, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		key, consume, ok := atomicFlagCall(info, call)
		switch {
		case !ok:
		case consume:
			consumes, keys = append(consumes, call), append(keys, key)
		default:
			raised[key] = true
		}
		return true
	})
	var out map[*ast.CallExpr]bool
	for i, call := range consumes {
		if raised[keys[i]] {
			continue
		}
		if out == nil {
			out = map[*ast.CallExpr]bool{}
		}
		out[call] = true
	}
	return out
}

// atomicFlagCall reports whether call operates on an atomic value kept
// in a field or a package variable (key), and whether it consumes it as
// a flag (see flagEvents). A Load is neither: ok is false.
func atomicFlagCall(info *types.Info, call *ast.CallExpr) (key types.Object, consume, ok bool) {
	fn := analysisutil.Callee(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return nil, false, false
	}
	var target ast.Expr
	var args []ast.Expr
	if sel, isSel := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); isSel && fn.Type().(*types.Signature).Recv() != nil {
		target, args = sel.X, call.Args
	} else if len(call.Args) > 0 {
		target, args = call.Args[0], call.Args[1:]
	} else {
		return nil, false, false
	}
	if u, isAddr := analysisutil.Unparen(target).(*ast.UnaryExpr); isAddr && u.Op == token.AND {
		target = u.X
	}
	var obj types.Object
	switch t := analysisutil.Unparen(target).(type) {
	case *ast.SelectorExpr:
		obj = info.Uses[t.Sel]
	case *ast.Ident:
		obj = info.Uses[t]
	}
	v, isVar := obj.(*types.Var)
	if !isVar || v.Pkg() == nil || !(v.IsField() || v.Parent() != nil && v.Parent() == v.Pkg().Scope()) {
		return nil, false, false
	}
	name := fn.Name()
	switch {
	case strings.HasPrefix(name, "Load"):
		return nil, false, false
	case name == "Swap" && len(args) == 1:
		return v, lowered(info, args[0]), true
	case strings.HasPrefix(name, "CompareAndSwap") && len(args) == 2:
		return v, constKnown(info, args[0]) && !lowered(info, args[0]) && lowered(info, args[1]), true
	}
	return v, false, true
}

// lowered reports whether e is the constant false or 0: the flag
// lowered.
func lowered(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	if tv.Value.Kind() == constant.Bool {
		return !constant.BoolVal(tv.Value)
	}
	return isZeroConst(tv.Value)
}

// constKnown reports whether e is a constant.
func constKnown(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil
}
