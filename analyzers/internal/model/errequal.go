package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// comparesErrors reports whether d is an equality of two errors, whose
// parameters it returns: a function of exactly two error parameters and
// a bool result, every return of which is a constant or compares a
// value of the one parameter with a value of the other — the parameter,
// a call given only it (`errors.Cause(a)`, `errors.Unwrap(a)`), its
// Error() text, or a local assigned one of those once — with == or
// errors.Is (`if a == b { return true }; return a.Error() ==
// b.Error()`). At least one return compares. A call of it is read as
// errors.Is(a, b): given a package error, it picks that failure out.
func comparesErrors(info *types.Info, sig *types.Signature, d *ast.FuncDecl) (param, target int, ok bool) {
	var errs []int
	for i := range sig.Params().Len() {
		if analysisutil.IsErrorType(sig.Params().At(i).Type()) {
			errs = append(errs, i)
		}
	}
	if sig.Params().Len() != 2 || len(errs) != 2 {
		return 0, 0, false
	}
	a, b := sig.Params().At(0), sig.Params().At(1)
	// side: which parameter a local stands for (1 or 2), from its one
	// assignment; 0 for anything else.
	assigned := map[types.Object]int{}
	writes := map[types.Object]int{}
	var side func(e ast.Expr) int
	side = func(e ast.Expr) int {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			switch obj := info.Uses[x]; {
			case obj == a:
				return 1
			case obj == b:
				return 2
			case obj != nil && writes[obj] == 1:
				return assigned[obj]
			}
		case *ast.CallExpr:
			if sel, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr); ok && len(x.Args) == 0 && sel.Sel.Name == "Error" && analysisutil.IsErrorType(info.TypeOf(sel.X)) {
				return side(sel.X)
			}
			if len(x.Args) == 1 && !x.Ellipsis.IsValid() {
				if fn := analysisutil.Callee(info, x); fn != nil {
					if s := fn.Type().(*types.Signature); s.Params().Len() == 1 && s.Results().Len() == 1 && analysisutil.IsErrorType(s.Results().At(0).Type()) {
						return side(x.Args[0])
					}
				}
			}
		}
		return 0
	}
	broken := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			broken = true
		case *ast.AssignStmt:
			for i, l := range x.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				obj := info.ObjectOf(id)
				if obj == a || obj == b {
					broken = true // a parameter given another value
				}
				writes[obj]++
				if len(x.Lhs) == len(x.Rhs) {
					assigned[obj] = side(x.Rhs[i])
				}
			}
		case *ast.IncDecStmt, *ast.DeclStmt:
			broken = true
		}
		return !broken
	})
	if broken {
		return 0, 0, false
	}
	compares := func(e ast.Expr) bool {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.BinaryExpr:
			if x.Op != token.EQL {
				return false
			}
			l, r := side(x.X), side(x.Y)
			return l != 0 && r != 0 && l != r
		case *ast.CallExpr:
			if fn := analysisutil.Callee(info, x); analysisutil.IsFunc(fn, "errors", "Is") && len(x.Args) == 2 {
				l, r := side(x.Args[0]), side(x.Args[1])
				return l == 1 && r == 2
			}
		}
		return false
	}
	compared, other := false, false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return true
		}
		if len(ret.Results) != 1 {
			other = true
			return false
		}
		switch {
		case info.Types[ret.Results[0]].Value != nil:
		case compares(ret.Results[0]):
			compared = true
		default:
			other = true
		}
		return false
	})
	if !compared || other {
		return 0, 0, false
	}
	return 0, 1, true
}
