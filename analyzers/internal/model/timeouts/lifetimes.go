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
	w := &paramWalk{m: m, memo: m.lifetimes, maxDepth: maxFollow, needs: true, handOn: useCounts,
		imported: func(fn *types.Func, i int) bool {
			var f LifetimeFact
			return m.pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
		},
		use: func(id *ast.Ident, parent, grand ast.Node) paramUse {
			call, ok := parent.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || call.Args[0] != ast.Expr(id) || !m.isContextFunc(call, "WithCancel", "WithCancelCause") {
				if m.storedAfterRoot(id, parent, grand) || m.rootReassigned(id, parent) {
					return useHarmless
				}
				return useKeeps
			}
			as, ok := grand.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 || as.Rhs[0] != ast.Expr(call) {
				return useKeeps
			}
			if m.cancelKept(as) && !m.runsUnder(id, as.Lhs[0]) {
				return useCounts // the cancel kept in a field: stopped by hand
			}
			return useKeeps
		}}
	return w.param(fn, i, map[*types.Var]bool{}, 0)
}

// cancelKept reports whether the cancel function as (`x, cancel :=
// context.WithCancel(parent)`) assigns is kept in a field: assigned to
// one there (`b.ctx, b.cancel = ...`), or a local whose every use is as
// the value of a field (`&T{cancel: cancel}`, `t.cancel = cancel`).
func (m *layer) cancelKept(as *ast.AssignStmt) bool {
	info := m.pass.TypesInfo
	lhs := analysisutil.Unparen(as.Lhs[1])
	if sel, ok := lhs.(*ast.SelectorExpr); ok {
		s, ok := info.Selections[sel]
		return ok && s.Kind() == types.FieldVal
	}
	id, ok := lhs.(*ast.Ident)
	if !ok || id.Name == "_" {
		return false
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	body := m.bodyOf(v)
	if !ok || body == nil {
		return false
	}
	uses, kept := 0, true
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		x, ok := n.(*ast.Ident)
		if !ok || !kept || info.Uses[x] != v {
			return kept
		}
		var parent, grand ast.Node
		if len(stack) > 1 {
			parent, grand = stack[len(stack)-1], stack[len(stack)-2]
		}
		if fieldValue(info, x, parent, grand) {
			uses++
		} else {
			kept = false // any other use: called, returned, handed on
		}
		return kept
	})
	return kept && uses > 0
}

// storedAfterRoot reports whether id, a use of a context parameter, is the
// value of a field (`&T{ctx: ctx}`, `t.ctx = ctx`) after the function
// made the parameter the root of a lifetime in its own place (`ctx,
// cancel := context.WithCancel(ctx)` with the cancel kept in a field):
// what is stored there is the derived context, the lifetime's.
func (m *layer) storedAfterRoot(id *ast.Ident, parent, grand ast.Node) bool {
	info := m.pass.TypesInfo
	if !fieldValue(info, id, parent, grand) {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	root := m.rootAssign(v)
	return root != nil && root.End() <= id.Pos()
}

// fieldValue reports whether id, under parent and grand, is stored in a
// field: the value of a field in a composite literal (`&T{ctx: ctx}`) or
// what a field is assigned (`t.ctx = ctx`).
func fieldValue(info *types.Info, id *ast.Ident, parent, grand ast.Node) bool {
	switch p := parent.(type) {
	case *ast.KeyValueExpr:
		_, inLit := grand.(*ast.CompositeLit)
		return inLit && p.Value == ast.Expr(id)
	case *ast.AssignStmt:
		if len(p.Lhs) != 1 || len(p.Rhs) != 1 || p.Rhs[0] != ast.Expr(id) {
			return false
		}
		sel, ok := analysisutil.Unparen(p.Lhs[0]).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s, ok := info.Selections[sel]
		return ok && s.Kind() == types.FieldVal
	}
	return false
}

// rootAssign returns the first statement of v's function that makes the
// parameter v the root of a lifetime in its own place (`ctx, cancel :=
// context.WithCancel(ctx)`, the cancel kept in a field), or nil. Memoized:
// each use of v asks it.
func (m *layer) rootAssign(v *types.Var) *ast.AssignStmt {
	if as, ok := m.roots[v]; ok {
		return as
	}
	var root *ast.AssignStmt
	if body := m.bodyOf(v); body != nil {
		info := m.pass.TypesInfo
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if root != nil || !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
				return root == nil
			}
			call, ok := analysisutil.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || !m.isContextFunc(call, "WithCancel", "WithCancelCause") {
				return true
			}
			lhs, ok1 := analysisutil.Unparen(as.Lhs[0]).(*ast.Ident)
			arg, ok2 := analysisutil.Unparen(call.Args[0]).(*ast.Ident)
			if ok1 && ok2 && info.Uses[lhs] == v && info.Uses[arg] == v && m.cancelKept(as) {
				root = as
			}
			return root == nil
		})
	}
	if m.roots == nil {
		m.roots = map[*types.Var]*ast.AssignStmt{}
	}
	m.roots[v] = root
	return root
}

// rootReassigned reports whether id is the parameter assigned the
// context it derives as a lifetime's root (the first ctx of `ctx, cancel
// := context.WithCancel(ctx)`, the cancel kept in a field): written, not
// read.
func (m *layer) rootReassigned(id *ast.Ident, parent ast.Node) bool {
	as, ok := parent.(*ast.AssignStmt)
	v, isVar := m.pass.TypesInfo.Uses[id].(*types.Var)
	return ok && isVar && as.Lhs[0] == ast.Expr(id) && m.rootAssign(v) == as
}

// bodyOf returns the body of the declared function whose parameter or
// local v is, or nil.
func (m *layer) bodyOf(v *types.Var) *ast.BlockStmt {
	if v == nil {
		return nil
	}
	for fn, d := range m.vals.Decls {
		if d.Body != nil && fn.Scope() != nil && fn.Scope().Contains(v.Pos()) {
			return d.Body
		}
	}
	return nil
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
// b.cancel = context.WithCancel(parent)`, or the parameter itself in
// `ctx, cancel := context.WithCancel(ctx)`), to a call in its own body
// after deriving it, outside go statements and function literals: it
// then waits under that context itself, and its caller's context bounds
// that wait.
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
			if x.Pos() < id.Pos() {
				return true // before the context is derived, or the root's own call
			}
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
