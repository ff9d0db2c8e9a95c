package waits

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// MayWaitFact is exported for a method of an interface of the package
// that a type of the package implements with a method that waits (a file
// watcher's BlockUntilExists, polling until the file is there): a call
// through the interface, in another package, may wait, and the model
// cannot tell that it does not.
type MayWaitFact struct{}

func (*MayWaitFact) AFact()         {}
func (*MayWaitFact) String() string { return "may wait" }

// ImportedMayWait reports whether fn, an interface method of another
// package, has a MayWaitFact.
func (m *Result) ImportedMayWait(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Pkg() == m.pass.Pkg || !analysisutil.IsInterfaceMethod(fn) {
		return false
	}
	return m.pass.ImportObjectFact(fn, new(MayWaitFact))
}

// findWaitMethods returns the methods of the package's interfaces that a
// type of the package implements with a method that waits (a retry
// handler's WaitOrSkip, called through the interface the client holds),
// and exports a MayWaitFact for the exported ones.
// Cost: the package's waiting methods times its interfaces.
func (m *Result) findWaitMethods() map[*types.Func]bool {
	var waiting []*types.Func
	concrete := func(fn *types.Func) bool {
		sig, ok := fn.Type().(*types.Signature)
		if !ok || sig.Recv() == nil {
			return false
		}
		_, isIface := sig.Recv().Type().Underlying().(*types.Interface)
		return !isIface
	}
	for fn := range m.WaitFuncs {
		if concrete(fn) {
			waiting = append(waiting, fn)
		}
	}
	// A method that waits only in a loop of its own (polling until a
	// file is there, a pause between checks) may wait as well.
	in := Calls{Info: m.pass.TypesInfo, Funcs: m.WaitFuncs, Pure: m.PureWaits, Import: m.ImportedWait, Certain: true}
	for fn, d := range m.vals.Decls {
		if m.WaitFuncs[fn] || d.Body == nil || !concrete(fn) {
			continue
		}
		found := false
		ast.Inspect(d.Body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			found = found || n != nil && in.WaitsHere(n)
			return !found
		})
		if found {
			waiting = append(waiting, fn)
		}
	}
	out := map[*types.Func]bool{}
	if len(waiting) == 0 {
		return out
	}
	for _, tn := range analysisutil.Interfaces(m.pass.Pkg) {
		iface := tn.Type().Underlying().(*types.Interface)
		for _, fn := range waiting {
			recv := fn.Type().(*types.Signature).Recv().Type()
			if !types.Implements(recv, iface) {
				continue
			}
			for i := range iface.NumMethods() {
				if im := iface.Method(i); im.Name() == fn.Name() {
					out[im] = true
					if im.Pkg() == m.pass.Pkg && tn.Exported() && im.Exported() && !m.pass.ImportObjectFact(im, new(MayWaitFact)) {
						m.pass.ExportObjectFact(im, &MayWaitFact{})
					}
				}
			}
		}
	}
	return out
}
