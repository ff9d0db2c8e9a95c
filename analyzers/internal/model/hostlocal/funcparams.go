package hostlocal

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// A function that runs a function it is given (`func retryOnIntr(f
// func() error)`, `func (s *store) locked(f func())`) is local when its
// own calls are and the function given at each call is: a function
// literal, whose body is read where it is written (inside the caller, as
// part of the caller's calls), or a named function that is local. A
// function value from anywhere else (a field, a parameter of the caller,
// an interface's method value) may reach anything, and the call is not
// local. LocalFact.Runs lists the parameters it runs.

// paramCall returns the index of the parameter of function type of fn
// that call calls (`f()`), or -1.
func paramCall(info *types.Info, fn *types.Func, call *ast.CallExpr) int {
	i := analysisutil.ParamIndex(info, fn, call.Fun)
	if i < 0 {
		return -1
	}
	if _, isFunc := fn.Signature().Params().At(i).Type().Underlying().(*types.Signature); !isFunc {
		return -1
	}
	return i
}

// runs returns the parameters fn runs (LocalFact.Runs), for a function of
// this package or, by its fact, of another.
func (r *Result) runs(fn *types.Func) []int {
	fn = fn.Origin()
	if fn.Pkg() == r.pass.Pkg {
		return r.runParams[fn]
	}
	var f LocalFact
	if r.pass.ImportObjectFact(fn, &f) {
		return f.Runs
	}
	return nil
}

// givenFuncs checks the functions a call of fn gives for the parameters
// fn runs: ok when each is a function literal (read in place) or names a
// function, which named lists for the caller to require local; not ok
// for any other function value.
func (r *Result) givenFuncs(fn *types.Func, call *ast.CallExpr) (named []*types.Func, ok bool) {
	info := r.pass.TypesInfo
	for _, i := range r.runs(fn) {
		if i >= len(call.Args) || fn.Signature().Variadic() && i == fn.Signature().Params().Len()-1 {
			return nil, false
		}
		a := analysisutil.Unparen(call.Args[i])
		if _, isLit := a.(*ast.FuncLit); isLit {
			continue
		}
		if sel, isSel := a.(*ast.SelectorExpr); isSel {
			if s := info.Selections[sel]; s != nil && s.Kind() != types.MethodVal {
				return nil, false // a method expression, a field
			}
		}
		f, isFunc := analysisutil.ReferredObject(info, a).(*types.Func)
		if !isFunc || analysisutil.IsInterfaceMethod(f) {
			return nil, false // a variable holding a function; any implementation
		}
		named = append(named, f)
	}
	return named, true
}

// paramCalls returns the parameters of fn that its body calls, each
// once, in order.
func paramCalls(info *types.Info, fn *types.Func, body *ast.BlockStmt) []int {
	var out []int
	seen := map[int]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if i := paramCall(info, fn, c); i >= 0 && !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
		return true
	})
	slices.Sort(out)
	return out
}
