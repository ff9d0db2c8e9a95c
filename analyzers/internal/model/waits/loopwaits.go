package waits

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// findLoopWaits returns the package's functions given a duration that
// wait only inside a loop of their own: a pause taken in steps so that
// a stop flag is seen between them (`for d > 0 && !stopped() { s :=
// min(step, d); time.Sleep(s); d -= s }`). They wait on no call that
// finds the loop's test false at once, so they are no WaitFact; but a
// call of one may wait the duration it is given, and a retry that calls
// it between its attempts is not known to go round at once
// (WaitMethods, the calls that may wait).
func (m *Result) findLoopWaits() map[*types.Func]bool {
	info := m.pass.TypesInfo
	in := Calls{Info: info, Funcs: m.WaitFuncs, Pure: m.PureWaits, Import: m.ImportedWait, Certain: true}
	out := map[*types.Func]bool{}
	for fn, d := range m.vals.Decls {
		if d.Body == nil || m.WaitFuncs[fn] || !durationParam(fn) {
			continue
		}
		waits := false
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if in.IsDelayCall(x) {
					waits = true
				}
			}
			return !waits
		})
		if waits {
			out[fn] = true
		}
	}
	return out
}

// durationParam reports whether fn has a time.Duration parameter.
func durationParam(fn *types.Func) bool {
	params := fn.Type().(*types.Signature).Params()
	for i := range params.Len() {
		if analysisutil.IsNamedType(params.At(i).Type(), "time", "Duration") {
			return true
		}
	}
	return false
}
