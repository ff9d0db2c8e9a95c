package timeouts

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// LifetimeFact is exported for a function, or a method of an interface
// of its package, whose context parameters at Params it only makes the
// root of a lifetime it keeps: every use derives a context with
// context.WithCancel (or WithCancelCause) whose cancel function it
// stores in a field, or hands the parameter on to one with the fact
// (`b.ctx, b.cancel = context.WithCancel(parent); go b.run()`: a
// service started asynchronously, stopped by its own Stop). The caller's
// context there chooses how long the started work may live, not how
// long the call takes: a context.Background() given to it drops nothing.
// An interface method has the fact when every type of its package that
// implements the interface gives that parameter the fact, and one does.
type LifetimeFact struct {
	Params []int
}

func (*LifetimeFact) AFact() {}

func (f *LifetimeFact) String() string { return fmt.Sprintf("lifetime%v", f.Params) }

// lifetimeSummary returns the LifetimeFact of fn, a function of this
// package; nil when none of its contexts is a lifetime's root.
func (m *layer) lifetimeSummary(fn *types.Func) *LifetimeFact {
	ps := contextParams(fn, func(i int) bool { return m.lifetimeParam(fn, i) })
	if len(ps) == 0 {
		return nil
	}
	return &LifetimeFact{Params: ps}
}

// lifetimeParam reports whether fn's context parameter i is only the
// root of a lifetime fn keeps (LifetimeFact). An interface method is
// asked of its implementations in its package (lifetimeMethod), or of
// its fact when it is another package's.
func (m *layer) lifetimeParam(fn *types.Func, i int) bool {
	if analysisutil.IsInterfaceMethod(fn) {
		if fn.Pkg() != m.pass.Pkg {
			var f LifetimeFact
			return m.pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
		}
		return m.lifetimeMethod(fn, i)
	}
	info := m.pass.TypesInfo
	w := &paramWalk{m: m, memo: m.lifetimes, maxDepth: maxFollow, needs: true, handOn: useCounts,
		imported: func(fn *types.Func, i int) bool {
			var f LifetimeFact
			return m.pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
		},
		use: func(id *ast.Ident, parent, grand ast.Node) paramUse {
			call, ok := parent.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || call.Args[0] != ast.Expr(id) || !m.isContextFunc(call, "WithCancel", "WithCancelCause") {
				return useKeeps
			}
			as, ok := grand.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 || as.Rhs[0] != ast.Expr(call) {
				return useKeeps
			}
			if sel, ok := analysisutil.Unparen(as.Lhs[1]).(*ast.SelectorExpr); ok {
				if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal && !m.runsUnder(id, as.Lhs[0]) {
					return useCounts // the cancel kept in a field: stopped by hand
				}
			}
			return useKeeps
		}}
	return w.param(fn, i, map[*types.Var]bool{}, 0)
}

// lifetimeMethod reports whether every type of this package that
// implements the interface of the method fn (not through an embedded
// interface) implements it with a method whose parameter i is only a
// lifetime's root, and one does.
func (m *layer) lifetimeMethod(fn *types.Func, i int) bool {
	impls, ok := m.impls[fn]
	if !ok {
		impls = analysisutil.Implementations(m.pass.Pkg, fn)
		if m.impls == nil {
			m.impls = map[*types.Func][]*types.Func{}
		}
		m.impls[fn] = impls
	}
	for _, impl := range impls {
		if !m.lifetimeParam(impl, i) {
			return false
		}
	}
	return len(impls) > 0
}

// exportLifetimes exports the LifetimeFact of the methods of the
// package's interfaces (lifetimeMethod).
func (m *layer) exportLifetimes() {
	for _, tn := range analysisutil.Interfaces(m.pass.Pkg) {
		iface := tn.Type().Underlying().(*types.Interface)
		for j := range iface.NumMethods() {
			fn := iface.Method(j)
			if fn.Pkg() != m.pass.Pkg {
				continue
			}
			ps := contextParams(fn, func(i int) bool { return m.lifetimeMethod(fn, i) })
			if len(ps) > 0 {
				m.pass.ExportObjectFact(fn, &LifetimeFact{Params: ps})
			}
		}
	}
}

// startsLifetime reports whether call gives its i'th argument to a
// context parameter that is only a lifetime's root (LifetimeFact).
func (m *layer) startsLifetime(call *ast.CallExpr, i int) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	return fn != nil && m.lifetimeParam(fn.Origin(), i)
}

// runsUnder reports whether the function whose parameter id names hands
// derived, the context it derived from that parameter (`b.ctx` of `b.ctx,
// b.cancel = context.WithCancel(parent)`), to a call in its own body,
// outside go statements and function literals: it then waits under that
// context itself, and its caller's context bounds that wait.
func (m *layer) runsUnder(id *ast.Ident, derived ast.Expr) bool {
	v, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return true
	}
	var body *ast.BlockStmt
	for fn, d := range m.vals.Decls {
		if d.Body != nil && fn.Scope() != nil && fn.Scope() == v.Parent() {
			body = d.Body // the function whose parameter v is
			break
		}
	}
	if body == nil {
		return true
	}
	want := types.ExprString(analysisutil.Unparen(derived))
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			for _, a := range x.Args {
				if types.ExprString(analysisutil.Unparen(a)) == want {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
