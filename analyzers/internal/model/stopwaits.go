package model

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

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
	m.funcsWhere(m.stopWaits, func(fn *types.Func, d *ast.FuncDecl) bool {
		if fn.Type().(*types.Signature).Results().Len() == 0 {
			return false
		}
		return m.selectsOnStopMemo(d.Body) || returnsCallOf(d.Body, func(c *ast.CallExpr) bool {
			return m.stopWait(analysisutil.Callee(info, c))
		})
	}, func() analysis.Fact { return &StopWaitFact{} })
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
	return m.funcHas(fn, m.stopWaits, new(StopWaitFact))
}
