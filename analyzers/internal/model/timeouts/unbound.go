package timeouts

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
)

// UnboundRetry is a library retry, called where a context is in scope,
// that is bound to no context: its library has an option that binds it
// (a catalog RetryContext row) and the call is known to leave it out.
// Its attempts and waits then go on under context.Background after the
// caller's context is done.
type UnboundRetry struct {
	Retry *model.Retry
	Call  *ast.CallExpr
	Ctx   string       // the context in scope
	Bind  *catalog.Row // the option that binds it
	// Wrap is the argument Bind wraps (cenkalti's BackOff); nil when
	// Bind is one more option of the call.
	Wrap ast.Expr
}

// unboundRetry states r when it is an UnboundRetry. The call is judged
// only when every value that could carry the binding is known: an
// option or backoff from a parameter, a field or an unknown function
// may carry it, and then nothing is said. A retry with a function
// literal among its arguments that asks the context in scope (its Err
// or Done, or compares with context.Canceled) stops itself after a
// cancellation (asksScope).
func (m *layer) unboundRetry(t *Timeouts, r *model.Retry) {
	call, ok := r.Node.(*ast.CallExpr)
	if !ok || r.Kind != model.LibraryRetry || r.Row == nil || r.Row.Role != catalog.Retry {
		return
	}
	bind := catalog.RetryContextOf(r.Row.Path)
	if bind == nil || r.Row.BoundArg < 0 || r.Row.BoundArg > len(call.Args) {
		return
	}
	scope, _ := m.retryScope(r.Pos)
	if scope == "" || m.neverCancelled(r.Pos, scope) {
		return
	}
	if m.asksScope(call, scope) {
		return
	}
	u := &UnboundRetry{Retry: r, Call: call, Ctx: scope, Bind: bind}
	if bind.Inner >= 0 {
		if r.Row.BoundArg >= len(call.Args) || !m.leavesOut(call.Args[r.Row.BoundArg], bind, 0) {
			return
		}
		u.Wrap = call.Args[r.Row.BoundArg]
	} else {
		args, ok := m.vals.Spread(call, r.Row.BoundArg)
		if !ok {
			return
		}
		for _, a := range args {
			if !m.leavesOut(a, bind, 0) {
				return
			}
		}
	}
	t.Unbound = append(t.Unbound, u)
}

// leavesOut reports whether every value e may hold is known to be made
// by its library without bind: a constructor, option or literal of
// bind's package, or a wrapper of one, none of them bind itself.
func (m *layer) leavesOut(e ast.Expr, bind *catalog.Row, depth int) bool {
	if depth > 8 {
		return false
	}
	origins := m.vals.Trace(e)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		if slices.ContainsFunc(o.Via, isField) {
			// c.Strategy: a field its users may set, bound to any
			// context; what the package puts there is not all it holds.
			return false
		}
		x := analysisutil.Unparen(o.Expr)
		if u, ok := x.(*ast.UnaryExpr); ok {
			x = analysisutil.Unparen(u.X)
		}
		switch x := x.(type) {
		case *ast.CompositeLit:
			// &backoff.ExponentialBackOff{...}
			named, ok := types.Unalias(m.pass.TypesInfo.TypeOf(x)).(*types.Named)
			if !ok || analysisutil.PkgPath(named.Obj()) != bind.Path {
				return false
			}
		case *ast.Ident, *ast.SelectorExpr:
			// retry.DelayType(retry.BackOffDelay): a function of the
			// library, given as a value.
			fn, ok := analysisutil.ReferredObject(m.pass.TypesInfo, x).(*types.Func)
			if !ok || analysisutil.PkgPath(fn) != bind.Path || fn.Name() == bind.Name {
				return false
			}
		case *ast.CallExpr:
			if tv, ok := m.pass.TypesInfo.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
				// backoff.BackOff(exp): a conversion keeps the value.
				if !m.leavesOut(x.Args[0], bind, depth+1) {
					return false
				}
				continue
			}
			// A function of the library other than bind: a constructor or
			// an option, or a wrapper (backoff.WithMaxRetries(b, 3)) whose
			// wrapped arguments, those of the type bind wraps, decide.
			fn := analysisutil.Callee(m.pass.TypesInfo, x)
			if fn == nil || analysisutil.PkgPath(fn) != bind.Path || fn.Name() == bind.Name && analysisutil.RecvTypeName(fn) == bind.Recv {
				return false
			}
			if wrapped := wrappedType(fn, bind); wrapped != nil {
				for _, a := range x.Args {
					if t := m.pass.TypesInfo.TypeOf(a); t != nil && types.AssignableTo(t, wrapped) && !m.leavesOut(a, bind, depth+1) {
						return false
					}
				}
			}
		default:
			return false
		}
	}
	return true
}

// asksScope reports whether a function literal among the call's
// arguments, or inside them (the operation, retry.RetryIf's predicate),
// asks the context in scope whether it is done (its Err or Done) or
// compares an error with context.Canceled or DeadlineExceeded: the
// retry can stop itself once the caller gave up.
func (m *layer) asksScope(call *ast.CallExpr, scope string) bool {
	asks := false
	for _, a := range call.Args {
		ast.Inspect(a, func(n ast.Node) bool {
			if asks {
				return false
			}
			lit, ok := n.(*ast.FuncLit)
			if !ok {
				return true
			}
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				if e, ok := n.(ast.Expr); ok && (m.errQuery(e, scope) || m.doneQuery(e, scope) || m.doneErr(e)) {
					asks = true
				}
				return !asks
			})
			return false
		})
	}
	return asks
}

// wrappedType is the type of the argument bind wraps (cenkalti's
// BackOff), looked up in fn's package, or nil when bind is an option.
func wrappedType(fn *types.Func, bind *catalog.Row) types.Type {
	if bind.Inner < 0 || fn.Pkg() == nil {
		return nil
	}
	b, ok := fn.Pkg().Scope().Lookup(bind.Name).(*types.Func)
	if !ok {
		return nil
	}
	sig := b.Type().(*types.Signature)
	if bind.Inner >= sig.Params().Len() {
		return nil
	}
	return sig.Params().At(bind.Inner).Type()
}

// isField reports whether obj is a struct field.
func isField(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && v.IsField()
}
