package model

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// fieldImpl resolves the interface method fn, called on an unexported
// field of this package (`s.client.Open(ctx, q)`), to the one concrete
// method the field can run: every value the package gives the field
// (keyed or unkeyed literals, assignments) has the same concrete type,
// and its address is never taken. Other packages cannot write an
// unexported field, so the package's writes are all there are. nil when
// any write is unknown or of an interface type, or when there is none.
func (m *builder) fieldImpl(call *ast.CallExpr, fn *types.Func) *types.Func {
	if !analysisutil.IsInterfaceMethod(fn) {
		return nil
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	recv, ok := analysisutil.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	fld, ok := m.pass.TypesInfo.Uses[recv.Sel].(*types.Var)
	if !ok || !fld.IsField() || fld.Exported() || fld.Pkg() != m.pass.Pkg || m.vals.Elements[fld] {
		return nil
	}
	writes := m.vals.Assigns[fld]
	if len(writes) == 0 {
		return nil
	}
	var impl types.Type
	for _, w := range writes {
		if w.Value == nil {
			return nil
		}
		tv, ok := m.pass.TypesInfo.Types[w.Value]
		if ok && tv.IsNil() {
			continue // a nil field runs nothing
		}
		if !ok || tv.Type == nil || types.IsInterface(tv.Type) {
			return nil
		}
		if impl != nil && !types.Identical(impl, tv.Type) {
			return nil
		}
		impl = tv.Type
	}
	if impl == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(impl, true, m.pass.Pkg, fn.Name())
	concrete, ok := obj.(*types.Func)
	if !ok || analysisutil.IsInterfaceMethod(concrete) {
		return nil
	}
	return concrete
}
