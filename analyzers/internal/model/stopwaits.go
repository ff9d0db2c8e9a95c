package model

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// StopWaitFact is exported for a function of the package with results
// whose body waits in a select with a case receiving from a stop kept
// outside it and returning (selectsOnStop): a backoffer's
// `Backoff(cfg, err) error` that returns once the context it holds is
// done; or that returns what such a function returns (`return
// b.backoffWithCfg(cfg, -1, err)`). A loop in any package that uses the
// result of a call of it is bounded by that stop (waitsOnStop), as by a
// stop case of its own.
type StopWaitFact struct{}

func (*StopWaitFact) AFact() {}

func (*StopWaitFact) String() string { return "waits on a stop" }

// exportStopWaits computes the package's functions that wait on a stop
// and exports their facts.
func (m *builder) exportStopWaits() {
	m.stopWaits = map[*types.Func]bool{}
	info := m.pass.TypesInfo
	for range 8 { // rounds reach returns of returns
		changed := false
		for fn, d := range m.vals.Decls {
			if m.stopWaits[fn] || d.Body == nil || fn.Type().(*types.Signature).Results().Len() == 0 {
				continue
			}
			if m.selectsOnStopMemo(d.Body) || returnsCallOf(d.Body, func(c *ast.CallExpr) bool {
				g := analysisutil.Callee(info, c)
				return g != nil && (m.stopWaits[g.Origin()] || m.importedStopWait(g))
			}) {
				m.stopWaits[fn] = true
				m.pass.ExportObjectFact(fn, &StopWaitFact{})
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

// returnsCallOf reports whether some return statement of body (not in a
// function literal) returns the results of a call for which pred holds.
func returnsCallOf(body *ast.BlockStmt, pred func(*ast.CallExpr) bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Results) == 1 {
				if c, ok := analysisutil.Unparen(x.Results[0]).(*ast.CallExpr); ok && pred(c) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// stopWait reports whether fn waits on a stop: a function of this
// package found so, or one of another package with a StopWaitFact.
func (m *builder) stopWait(fn *types.Func) bool {
	return fn != nil && (m.stopWaits[fn.Origin()] || m.importedStopWait(fn))
}

// importedStopWait reports whether fn, a function of another package,
// waits on a stop (its StopWaitFact).
func (m *builder) importedStopWait(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == m.pass.Pkg {
		return false
	}
	var f StopWaitFact
	return m.pass.ImportObjectFact(fn.Origin(), &f)
}
