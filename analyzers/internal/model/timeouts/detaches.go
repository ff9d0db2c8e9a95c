package timeouts

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
)

// DetachFact is exported for a function that only ever detaches its
// context parameters at Params: every use of one keeps its values and
// drops its lifetime — context.WithoutCancel(ctx), a literal of a
// values-only context type of the package (its own Done returns nil:
// `valueOnly{ctx}`), a handing on to a parameter that is only detached
// too — or reads a value (`ctx.Value(k)`), and at least one use detaches
// it. The function chose that nothing it does ends with its caller's
// context: a Background beside it drops nothing the function honours.
type DetachFact struct {
	Params []int
}

func (*DetachFact) AFact() {}

func (f *DetachFact) String() string { return fmt.Sprintf("detaches%v", f.Params) }

// detachSummary returns the DetachFact of fn, a function of this
// package; nil when it detaches none of its contexts.
func (m *layer) detachSummary(fn *types.Func) *DetachFact {
	ps := contextParams(fn, func(i int) bool { return m.detachedParam(fn, i) })
	if len(ps) == 0 {
		return nil
	}
	return &DetachFact{Params: ps}
}

// detachesScope reports whether the context parameter of fd named
// scope is one fd only ever detaches (DetachFact), or only makes the root
// of a lifetime it keeps (LifetimeFact: a constructor's context is the
// lifetime of what it builds, not a deadline for building it).
func (m *layer) detachesScope(fd *ast.FuncDecl, scope string) bool {
	fn, ok := m.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		if params.At(i).Name() == scope {
			return m.detachedParam(fn, i) || m.lifetimeParam(fn, i)
		}
	}
	return false
}

// detachedParam reports whether fn only ever detaches its context
// parameter i (see DetachFact). A function of another package is known by
// its DetachFact; an interface method or a function value may do
// anything with it.
func (m *layer) detachedParam(fn *types.Func, i int) bool {
	info := m.pass.TypesInfo
	w := &paramWalk{m: m, memo: m.detached, maxDepth: maxFollow, needs: true, handOn: useCounts,
		imported: func(fn *types.Func, i int) bool {
			var f DetachFact
			return m.pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
		},
		use: func(id *ast.Ident, parent, grand ast.Node) paramUse {
			switch x := parent.(type) {
			case *ast.CallExpr:
				if slices.Contains(x.Args, ast.Expr(id)) && m.isContextFunc(x, "WithoutCancel") {
					return useCounts
				}
			case *ast.CompositeLit:
				if m.valuesOnlyType(info.TypeOf(x)) {
					return useCounts
				}
			case *ast.KeyValueExpr:
				if lit, ok := grand.(*ast.CompositeLit); ok && x.Value == ast.Expr(id) && m.valuesOnlyType(info.TypeOf(lit)) {
					return useCounts
				}
			}
			return useKeeps
		}}
	return w.param(fn, i, map[*types.Var]bool{}, 0)
}

// valuesOnlyType reports whether t is a struct type of this package that
// is a context whose Done, declared on it, returns nil: a context with
// its values and no cancellation (`func (valueOnly) Done() <-chan
// struct{} { return nil }`).
func (m *layer) valuesOnlyType(t types.Type) bool {
	fn := doneMethod(t)
	if fn == nil {
		return false
	}
	for _, name := range []string{"Deadline", "Err", "Value"} {
		if o, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, fn.Pkg(), name); o == nil {
			return false // no context
		}
	}
	d := m.vals.Decls[fn.Origin()]
	if d == nil || d.Body == nil || len(d.Body.List) != 1 {
		return false
	}
	ret, ok := d.Body.List[0].(*ast.ReturnStmt)
	return ok && len(ret.Results) == 1 && m.pass.TypesInfo.Types[ret.Results[0]].IsNil()
}
