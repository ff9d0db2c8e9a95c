package waits

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// MakerFact is exported for a function whose one result is a function and
// every return gives a closure that waits outside loops (BodyWaits), or
// what another such function returns: a wait made to order (`func
// Linear(step time.Duration) Strategy { return func(n uint) bool {
// time.Sleep(step * time.Duration(n)); return true } }`). Calling what it
// made waits: a loop that calls it between its attempts has a delay,
// whose length the model does not follow.
type MakerFact struct{}

func (*MakerFact) AFact() {}

func (*MakerFact) String() string { return "makes a wait" }

// findMakers computes the package's wait makers, in rounds (one may return
// another's result), and exports their facts.
func (m *Result) findMakers() {
	info := m.pass.TypesInfo
	m.makers = map[*types.Func]bool{}
	m.makers = m.vals.Marked(maxFactRounds, func(fn *types.Func, d *ast.FuncDecl, marked map[*types.Func]bool) bool {
		m.makers = marked // what IsMaker asks, as marked so far
		sig := fn.Type().(*types.Signature)
		if sig.Results().Len() != 1 {
			return false
		}
		if _, ok := sig.Results().At(0).Type().Underlying().(*types.Signature); !ok {
			return false
		}
		all, some := true, false
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(x.Results) != 1 {
					all = false
					return false
				}
				switch r := analysisutil.Unparen(x.Results[0]).(type) {
				case *ast.FuncLit:
					all = all && m.BodyWaits(r.Body)
				case *ast.CallExpr:
					all = all && m.IsMaker(analysisutil.Callee(info, r))
				default:
					all = false
				}
				some = true
			}
			return all
		})
		return all && some
	})
	for fn := range m.makers {
		m.pass.ExportObjectFact(fn, &MakerFact{})
	}
}

// IsMaker reports whether fn makes waits (MakerFact): this package's, or
// another's through its fact.
func (m *Result) IsMaker(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		return m.makers[fn]
	}
	return fn.Pkg() != nil && m.pass.ImportObjectFact(fn, new(MakerFact))
}
