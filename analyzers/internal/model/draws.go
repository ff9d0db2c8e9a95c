package model

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// draws reports whether every operation of a loop's pass (ops: the loop's
// syntax) is given an identifier drawn anew at random in that pass
// (waits.FreshIDFact), in an argument, its receiver or a closure it runs:
//
//	for i := 0; i < 5; i++ {
//		id, err = newDeviceID() // crypto/rand
//		...
//		err = store.InTx(ctx, func(tx Tx) error { return insert(ctx, tx, id) })
//	}
//
// Each pass asks for a new row, as a search for a free key does. The
// draws themselves are no operations of the pass, and an identifier put
// in a context (a trace ID in its metadata) is no new request. What else
// the operation sends is sent again: the loop stays a retry
// (Retry.Draws), and the checks decide what the draws change.
func (in *interp) draws(m *builder, ops []ast.Node) bool {
	info := in.info
	// drawn reports whether e holds a fresh draw: it calls a draw, or is
	// a local given one in the pass.
	// locals memoizes the answer for each local (its assignments are
	// read once).
	locals := map[*types.Var]bool{}
	var drawn func(e ast.Node, depth int) bool
	drawn = func(e ast.Node, depth int) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				// A closure the operation runs: what it uses is the
				// operation's input.
				return depth == 0
			case *ast.CallExpr:
				if m.waitLayer.IsFreshID(x) {
					found = true
				}
			case *ast.Ident:
				v, ok := info.Uses[x].(*types.Var)
				if !ok || !isLocal(v) || depth > 0 {
					break
				}
				d, seen := locals[v]
				if !seen {
					for _, a := range m.vals.Assigns[v] {
						if a.Value != nil && inNodes(ops, a.Pos) && drawn(a.Value, depth+1) {
							d = true
							break
						}
					}
					locals[v] = d
				}
				if d {
					found = true
				}
			}
			return !found
		})
		return found
	}
	given := false
	all := true
	for _, root := range ops {
		ast.Inspect(root, func(n ast.Node) bool {
			if !all {
				return false
			}
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if !in.isOp(x) || m.waitLayer.IsFreshID(x) {
					return true
				}
				for _, p := range opInputs(x) {
					if analysisutil.IsNamedType(info.TypeOf(p), "context", "Context") {
						continue
					}
					if drawn(p, 0) {
						given = true
						return false
					}
				}
				all = false
				return false
			}
			return true
		})
	}
	return given && all
}
