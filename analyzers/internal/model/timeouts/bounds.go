package timeouts

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// BoundsFact is exported for a function that returns a context (its
// first result, a context.Context or a type that is one) and gives its
// context parameters at Params a lifetime of their own before anything
// else uses them (boundsOf): a constructor of contexts like
// context.WithTimeout, whose result ends by itself. A function of
// another package that does work under a context it bounds
// gets none: a Background handed to it still runs that work after the
// caller has given up, for as long as the library's timeout (a helper of
// the package itself is judged from its body: see boundsParam).
type BoundsFact struct {
	Params []int
}

func (*BoundsFact) AFact() {}

func (f *BoundsFact) String() string { return fmt.Sprintf("bounds%v", f.Params) }

// boundsSummary returns the BoundsFact of fn, a function of this
// package; nil when it bounds none of its contexts.
func (m *layer) boundsSummary(fn *types.Func) *BoundsFact {
	res := fn.Signature().Results()
	if res.Len() == 0 {
		return nil
	}
	var f BoundsFact
	params := fn.Signature().Params()
	for i := range params.Len() {
		// A result of a type of its own that is a context
		// (*primaryCtx) counts as one.
		// A *context.Context parameter is no context.
		t := params.At(i).Type()
		iface, ok := t.Underlying().(*types.Interface)
		if ok && isContextType(t) && (isContextType(res.At(0).Type()) || types.Implements(res.At(0).Type(), iface)) && m.boundsOf(fn, i, 0) {
			f.Params = append(f.Params, i)
		}
	}
	if len(f.Params) == 0 {
		return nil
	}
	return &f
}

// boundsParam reports whether the function call calls gives its context
// parameter i a lifetime of its own before anything else uses it
// (boundsOf). A Background handed to it is bounded there, not dropped:
// cleanup given a fresh context on purpose, so that it runs after the
// caller's context is done.
func (m *layer) boundsParam(call *ast.CallExpr, i int) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	return fn != nil && m.boundsOf(fn, i, 0)
}

// boundsOf reports whether fn gives its context parameter i a lifetime of
// its own before anything else uses it: the first use of the parameter, a
// statement of the body itself (not inside a branch), either derives a
// context that ends by itself — a deadline (context.WithTimeout,
// WithDeadline) that is not only a default for callers without one, or a
// context.WithCancel whose cancel function a timer calls (a select case
// receiving from a timer, or a goroutine that receives from one first:
// `go func() { <-after(ctx, d); cancel() }()`) — rebinding the parameter
// or as its only use (`ctx, cancel := context.WithTimeout(ctx,
// closeTimeout)`), or stores it in a literal of a context type made to
// order (ownDone), or returns such a derivation, or the call of a
// function that bounds the parameter it is given (`return
// timer.Within(ctx, c.after, d)`). A function of another package is known
// by its BoundsFact.
func (m *layer) boundsOf(fn *types.Func, i, depth int) bool {
	info := m.pass.TypesInfo
	fn = fn.Origin()
	sig := fn.Signature()
	if sig.Variadic() && i >= sig.Params().Len()-1 || i >= sig.Params().Len() {
		return false
	}
	d := m.vals.Decls[fn]
	if d == nil {
		var f BoundsFact
		return fn.Pkg() != nil && fn.Pkg() != m.pass.Pkg && m.pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
	}
	if d.Body == nil || depth > maxFollow {
		return false
	}
	param := sig.Params().At(i)
	uses := func(n ast.Node) int {
		k := 0
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && info.Uses[id] == param {
				k++
			}
			return true
		})
		return k
	}
	isParam := func(e ast.Expr) bool {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == param
	}
	for j, st := range d.Body.List {
		if uses(st) == 0 {
			continue
		}
		switch st := st.(type) {
		case *ast.ReturnStmt:
			if len(st.Results) != 1 || uses(st) != 1 {
				return false
			}
			if ownDone(info, st.Results[0], param) {
				return true
			}
			call, ok := analysisutil.Unparen(st.Results[0]).(*ast.CallExpr)
			if !ok {
				return false
			}
			if m.isContextFunc(call, "WithTimeout", "WithTimeoutCause", "WithDeadline", "WithDeadlineCause") {
				return len(call.Args) >= 2 && isParam(call.Args[0]) && !m.defaultOnly(call)
			}
			for k, a := range call.Args {
				if isParam(a) {
					callee := analysisutil.Callee(info, call)
					return callee != nil && m.boundsOf(callee, k, depth+1)
				}
			}
			return false
		case *ast.AssignStmt:
			if len(st.Rhs) != 1 {
				return false
			}
			dl, isCall := analysisutil.Unparen(st.Rhs[0]).(*ast.CallExpr)
			switch {
			case ownDone(info, st.Rhs[0], param) && uses(st.Rhs[0]) == 1:
				// ctx := &primaryCtx{parent: parent, ...}
			case !isCall || len(dl.Args) == 0 || !isParam(dl.Args[0]) || uses(dl) != 1:
				return false
			case m.isContextFunc(dl, "WithTimeout", "WithTimeoutCause", "WithDeadline", "WithDeadlineCause"):
				if len(dl.Args) < 2 || m.defaultOnly(dl) {
					return false
				}
			case m.isContextFunc(dl, "WithCancel", "WithCancelCause"):
				if len(st.Lhs) != 2 {
					return false
				}
				id, ok := st.Lhs[1].(*ast.Ident)
				v, _ := info.ObjectOf(id).(*types.Var)
				if !ok || v == nil || !timerCancels(info, v, d.Body) {
					return false
				}
			default:
				return false
			}
			if isParam(st.Lhs[0]) {
				return true // rebound: every later use is of the derived context
			}
			rest := 0
			for _, later := range d.Body.List[j+1:] {
				rest += uses(later)
			}
			return rest == 0
		default:
			return false
		}
	}
	return false
}

// timerCancels reports whether the cancel function v is called when a
// timer fires: in a select case that receives from a timer (`case
// <-time.After(grace): cancel()`), or in a goroutine that receives from
// one first (`go func() { <-after(ctx, d); cancel() }()`). The code ends
// the context itself, a bounded time after what it waits for.
func timerCancels(info *types.Info, v *types.Var, body ast.Node) bool {
	fromTimer := func(e ast.Expr) bool {
		u, ok := analysisutil.Unparen(e).(*ast.UnaryExpr)
		return ok && u.Op == token.ARROW && waits.IsTimeChan(info.TypeOf(u.X))
	}
	cancels := func(st ast.Stmt) bool {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := analysisutil.Unparen(es.X).(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return false
		}
		id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CommClause:
			var recv ast.Expr
			switch c := x.Comm.(type) {
			case *ast.ExprStmt:
				recv = c.X
			case *ast.AssignStmt:
				if len(c.Rhs) == 1 {
					recv = c.Rhs[0]
				}
			}
			found = found || recv != nil && fromTimer(recv) && slices.ContainsFunc(x.Body, cancels)
		case *ast.GoStmt:
			lit, ok := analysisutil.Unparen(x.Call.Fun).(*ast.FuncLit)
			if !ok {
				break
			}
			fired := false
			for _, st := range lit.Body.List {
				switch s := st.(type) {
				case *ast.ExprStmt:
					fired = fired || fromTimer(s.X)
				case *ast.AssignStmt:
					fired = fired || len(s.Rhs) == 1 && fromTimer(s.Rhs[0])
				}
				found = found || fired && cancels(st)
			}
		}
		return !found
	})
	return found
}

// ownDone reports whether e is a composite literal (or its address) of
// a context type made to order that param is stored in: a struct type
// whose Done method is its own, declared on it and not promoted from an
// embedded context (`&primaryCtx{parent: parent, primaryCh: ch}`, whose
// Done is a channel its maker closes when the node stops being primary).
// The code chose when that context ends: a lifetime of its own, as with
// a deadline. A type that embeds the parent and keeps its Done ends when
// the parent does.
func ownDone(info *types.Info, e ast.Expr, param *types.Var) bool {
	e = analysisutil.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = analysisutil.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	if doneMethod(info.TypeOf(lit)) == nil {
		return false
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := analysisutil.Unparen(kv.Value).(*ast.Ident); ok && info.Uses[id] == param {
			return true
		}
	}
	return false
}

// doneMethod returns the Done method declared on t, a struct type (not
// one promoted from an embedded field), when it answers a channel and
// takes nothing: a context type made to order, whose lifetime is its
// own.
func doneMethod(t types.Type) *types.Func {
	if t == nil {
		return nil
	}
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return nil
	}
	obj, index, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, nil, "Done")
	fn, ok := obj.(*types.Func)
	if !ok || len(index) != 1 || fn.Signature().Params().Len() != 0 || fn.Signature().Results().Len() != 1 {
		return nil
	}
	if _, ok := fn.Signature().Results().At(0).Type().Underlying().(*types.Chan); !ok {
		return nil
	}
	return fn
}
