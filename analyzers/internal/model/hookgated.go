package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// hookGated reports whether fn is a bool method of the package that
// answers true only where a hook of its receiver says so: every return
// that may give true is inside an if whose condition holds only where a
// function-typed field of the receiver is set or says so (`if
// c.retryFunc != nil`, `if c.retryFunc(r.StatusCode)`, an && with such
// an operand), or returns such a condition itself (`return c.retryFunc
// != nil && c.retryFunc(code)`). A retry that goes round on such an
// answer resends only the failures the hook picks out, and only when
// whoever built the value set it: the choice is the hook's, as an
// errors.Is names one failure.
func (m *builder) hookGated(fn *types.Func) bool {
	if fn == nil || fn.Pkg() != m.pass.Pkg {
		return false
	}
	if v, ok := m.hookGates[fn.Origin()]; ok {
		return v
	}
	v := m.hookGated1(fn.Origin())
	if m.hookGates == nil {
		m.hookGates = map[*types.Func]bool{}
	}
	m.hookGates[fn.Origin()] = v
	return v
}

func (m *builder) hookGated1(fn *types.Func) bool {
	d := m.vals.Decls[fn]
	sig, _ := fn.Type().(*types.Signature)
	if d == nil || d.Body == nil || sig == nil || sig.Recv() == nil || sig.Results().Len() != 1 || !analysisutil.IsBool(sig.Results().At(0).Type()) {
		return false
	}
	if d.Recv == nil || len(d.Recv.List) == 0 || len(d.Recv.List[0].Names) == 0 {
		return false
	}
	info := m.pass.TypesInfo
	recv := info.Defs[d.Recv.List[0].Names[0]]
	if recv == nil {
		return false
	}
	// isHook reports whether e is a function-typed field of the
	// receiver.
	isHook := func(e ast.Expr) bool {
		sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := analysisutil.Unparen(sel.X).(*ast.Ident)
		if !ok || info.Uses[id] != recv {
			return false
		}
		v, ok := info.Uses[sel.Sel].(*types.Var)
		if !ok || !v.IsField() {
			return false
		}
		_, isFunc := v.Type().Underlying().(*types.Signature)
		return isFunc
	}
	// hook reports whether e holds only where the hook is set or says
	// so: a call of it, a test that it is not nil, or an && with such an
	// operand.
	var hook func(e ast.Expr) bool
	hook = func(e ast.Expr) bool {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.CallExpr:
			return isHook(x.Fun)
		case *ast.BinaryExpr:
			switch x.Op {
			case token.LAND:
				return hook(x.X) || hook(x.Y)
			case token.NEQ:
				return isHook(x.X) && isNilIdent(info, x.Y) || isHook(x.Y) && isNilIdent(info, x.X)
			}
		}
		return false
	}
	gated, trues := true, 0
	var walk func(n ast.Node, under bool)
	walk = func(n ast.Node, under bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				if x.Init != nil {
					walk(x.Init, under)
				}
				walk(x.Body, under || hook(x.Cond))
				if x.Else != nil {
					walk(x.Else, under)
				}
				return false
			case *ast.ReturnStmt:
				if len(x.Results) != 1 {
					gated = false
					return false
				}
				if tv := info.Types[x.Results[0]]; tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value) {
					return false // return false
				}
				trues++
				if !under && !hook(x.Results[0]) {
					gated = false
				}
				return false
			}
			return true
		})
	}
	walk(d.Body, false)
	return gated && trues > 0
}
