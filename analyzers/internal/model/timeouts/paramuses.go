package timeouts

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// A paramUse is what one use of a context parameter does with it.
type paramUse int

const (
	useKeeps    paramUse = iota // the context is used as it is: the answer is no
	useHarmless                 // a use that says nothing (ctx.Value)
	useCounts                   // a use of the kind asked about (a detach)
)

// paramWalk asks of a context parameter what every use of it does:
// whether it is never read (unreadParam), or only ever detached
// (detachedParam). Both accept ctx.Value (a value it carries, not its
// lifetime), follow a hand-on into a callee of the package (with a
// visiting set, a depth cap and a memo at depth 0) and read another
// package's answer from a fact; they differ in the uses they accept.
type paramWalk struct {
	m *layer
	// memo keeps the answers for the parameters asked first.
	memo     map[*types.Var]bool
	maxDepth int
	// unnamed is the answer for a parameter with no name or named _.
	unnamed bool
	// needs: the answer is yes only when some use counts; otherwise when
	// no use keeps the context.
	needs bool
	// imported answers for a function of another package (its fact).
	imported func(fn *types.Func, i int) bool
	// handOn is what handing the parameter to a callee's parameter for
	// which the answer is yes does (useHarmless, useCounts).
	handOn paramUse
	// use classifies any other use (id its identifier, parent and grand
	// the nodes above it); nil: every other use keeps the context.
	use func(id *ast.Ident, parent, grand ast.Node) paramUse
}

// param answers for parameter i of fn.
func (w *paramWalk) param(fn *types.Func, i int, visiting map[*types.Var]bool, depth int) bool {
	if analysisutil.IsInterfaceMethod(fn) {
		return false
	}
	fn = fn.Origin()
	sig := fn.Signature()
	if sig.Variadic() && i >= sig.Params().Len()-1 || i >= sig.Params().Len() {
		return false
	}
	p := sig.Params().At(i)
	if p.Name() == "_" || p.Name() == "" {
		return w.unnamed
	}
	d := w.m.vals.Decls[fn]
	if d == nil {
		return fn.Pkg() != nil && fn.Pkg() != w.m.pass.Pkg && w.imported(fn, i)
	}
	if d.Body == nil || depth > w.maxDepth {
		return false
	}
	if r, ok := w.memo[p]; ok {
		return r
	}
	if visiting[p] {
		return true // handed back to itself: the answer is the other uses'
	}
	visiting[p] = true
	defer delete(visiting, p)
	info := w.m.pass.TypesInfo
	kept, counts := false, false
	ast.PreorderStack(d.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if kept || !ok || info.Uses[id] != p {
			return !kept
		}
		var parent, grand ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		if len(stack) > 1 {
			grand = stack[len(stack)-2]
		}
		u := useKeeps
		switch x := parent.(type) {
		case *ast.SelectorExpr:
			if c, ok := grand.(*ast.CallExpr); ok && c.Fun == ast.Expr(x) && analysisutil.IsMethod(analysisutil.Callee(info, c), "context", "Context", "Value") {
				u = useHarmless
			}
		case *ast.CallExpr:
			if j := slices.Index(x.Args, ast.Expr(id)); j >= 0 {
				if callee := analysisutil.Callee(info, x); callee != nil && w.param(callee, j, visiting, depth+1) {
					u = w.handOn
				}
			}
		}
		if u == useKeeps && w.use != nil {
			u = w.use(id, parent, grand)
		}
		switch u {
		case useKeeps:
			kept = true
		case useCounts:
			counts = true
		}
		return false
	})
	r := !kept && (counts || !w.needs)
	if depth == 0 {
		// Known for good only when no cycle was assumed on the way.
		w.memo[p] = r
	}
	return r
}

// contextParams returns the indexes of fn's context parameters for which
// holds is true: the Params of a parameter fact.
func contextParams(fn *types.Func, holds func(i int) bool) []int {
	var out []int
	params := fn.Signature().Params()
	for i := range params.Len() {
		if isContextType(params.At(i).Type()) && holds(i) {
			out = append(out, i)
		}
	}
	return out
}
