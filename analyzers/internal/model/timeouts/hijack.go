package timeouts

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// HijackFact is exported for a function that takes an HTTP connection
// over: it calls http.Hijacker's Hijack, or a function with this fact (a
// WebSocket upgrader's Upgrade or Accept). The request's context ends
// when the handler returns, which a handler that took its connection over
// does while another goroutine serves the connection.
type HijackFact struct{}

func (*HijackFact) AFact() {}

func (*HijackFact) String() string { return "hijacks" }

// maxHijackRounds bounds the rounds that carry the fact up chains of the
// package's own functions.
const maxHijackRounds = 8

// findHijackers computes the package's functions that take a connection
// over and exports their facts.
func (m *layer) findHijackers() {
	info := m.pass.TypesInfo
	m.hijackers = map[*types.Func]bool{}
	m.hijackers = m.vals.Marked(maxHijackRounds, func(_ *types.Func, d *ast.FuncDecl, marked map[*types.Func]bool) bool {
		m.hijackers = marked // what hijacks asks, as marked so far
		found := false
		ast.Inspect(d.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && m.hijacks(analysisutil.Callee(info, c)) {
				found = true
			}
			return !found
		})
		return found
	})
	for fn := range m.hijackers {
		m.pass.ExportObjectFact(fn, &HijackFact{})
	}
}

// hijacks reports whether a call of fn takes an HTTP connection over:
// http.Hijacker's Hijack, or a function with a HijackFact.
func (m *layer) hijacks(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	if analysisutil.IsMethod(fn, "net/http", "Hijacker", "Hijack") {
		return true
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		return m.hijackers[fn]
	}
	return fn.Pkg() != nil && m.pass.ImportObjectFact(fn, new(HijackFact))
}
