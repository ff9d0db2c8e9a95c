package httpstatus

import (
	"go/ast"
	"go/types"
	"slices"
	"sort"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// Hooks: a handler the package keeps in a field (or variable) of
// function type and calls through it, with a ResponseWriter on which the
// caller has set headers first. ulule/limiter's middleware sets the rate
// limit headers and then calls its OnLimitReached hook, whose default
// writes the 429: the headers are on that response too.
//
// A function of the package whose every use as a value is stored in such
// hooks, and whose writes go to its ResponseWriter parameter, has on
// every write the headers that every call through those hooks sets
// before it. A function used as a value anywhere else (registered with a
// mux, passed to another function, returned) gets nothing: its other
// callers are not known.

// hookCalls records the headers set on the writers given at the calls
// through each hook.
type hookCalls struct {
	// sets is, per hook, the headers set before every call through it
	// (nil until the first call).
	sets map[types.Object][]string
	seen map[types.Object]bool
}

func newHookCalls() *hookCalls {
	return &hookCalls{sets: map[types.Object][]string{}, seen: map[types.Object]bool{}}
}

// hookOf returns the field or variable a dynamic call goes through.
func (b *builder) hookOf(call *ast.CallExpr) types.Object {
	if analysisutil.Callee(b.pass.TypesInfo, call) != nil {
		return nil
	}
	id := analysisutil.FuncIdent(call.Fun)
	if id == nil {
		return nil
	}
	v, ok := b.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.Pkg() != b.pass.Pkg {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return nil
	}
	return v
}

// hookCall records a dynamic call's writer arguments and the headers set
// on them.
func (b *builder) hookCall(u *unit, call *ast.CallExpr, s state) {
	hook := b.hookOf(call)
	if hook == nil {
		return
	}
	var set []string
	for _, a := range call.Args {
		if !isWriter(b.pass.TypesInfo.TypeOf(a)) {
			continue
		}
		w := &Write{}
		b.writer(u, w, a, s, nil)
		for _, h := range w.Before {
			if _, ok := paramRef(h); ok {
				h = UnknownHeader // the caller's parameter: not the hook's to name
			}
			set = append(set, h)
		}
	}
	sort.Strings(set)
	set = slices.Compact(set)
	h := b.hooks
	if !h.seen[hook] {
		h.seen[hook] = true
		h.sets[hook] = set
		return
	}
	h.sets[hook] = slices.DeleteFunc(h.sets[hook], func(x string) bool { return !slices.Contains(set, x) })
}

// hookBindings returns, for each function of the package used as a value
// only to be stored in hooks, those hooks.
func (b *builder) hookBindings() map[*types.Func][]types.Object {
	info := b.pass.TypesInfo
	// Values stored in a variable or field: the right side of an
	// assignment, a keyed element of a composite literal.
	stored := map[*ast.Ident]types.Object{}
	// Names in a call's function position: calls, not uses as values.
	called := map[*ast.Ident]bool{}
	store := func(to *ast.Ident, value ast.Expr) {
		v, ok := info.ObjectOf(to).(*types.Var)
		if !ok {
			return
		}
		if id, ok := analysisutil.Unparen(value).(*ast.Ident); ok {
			stored[id] = v
		}
	}
	for _, f := range b.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				switch fun := analysisutil.Unparen(n.Fun).(type) {
				case *ast.Ident:
					called[fun] = true
				case *ast.SelectorExpr:
					called[fun.Sel] = true
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok {
					store(k, n.Value)
				}
			case *ast.AssignStmt:
				if len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, l := range n.Lhs {
					switch l := analysisutil.Unparen(l).(type) {
					case *ast.Ident:
						store(l, n.Rhs[i])
					case *ast.SelectorExpr:
						store(l.Sel, n.Rhs[i])
					}
				}
			}
			return true
		})
	}
	bound := map[*types.Func][]types.Object{}
	other := map[*types.Func]bool{}
	for id, obj := range info.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() != b.pass.Pkg || b.funcs.Decls[fn] == nil || called[id] {
			continue
		}
		hook, ok := stored[id]
		if !ok {
			other[fn] = true
			continue
		}
		if _, isFunc := hook.Type().Underlying().(*types.Signature); !isFunc {
			other[fn] = true
			continue
		}
		if !slices.Contains(bound[fn], hook) {
			bound[fn] = append(bound[fn], hook)
		}
	}
	for fn := range other {
		delete(bound, fn)
	}
	return bound
}

// applyHooks adds to the writes of functions kept only in hooks the
// headers every call through the hooks sets first.
func (b *builder) applyHooks() {
	bound := b.hookBindings()
	if len(bound) == 0 {
		return
	}
	for _, w := range b.res.Writes {
		fd, ok := w.Func.(*ast.FuncDecl)
		if !ok || w.WriterParam < 0 {
			continue
		}
		fn, _ := b.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		hooks := bound[fn]
		if len(hooks) == 0 {
			continue
		}
		var set []string
		for i, h := range hooks {
			if !b.hooks.seen[h] {
				set = nil // a hook never called here: its callers are not known
				break
			}
			if i == 0 {
				set = slices.Clone(b.hooks.sets[h])
				continue
			}
			set = slices.DeleteFunc(set, func(x string) bool { return !slices.Contains(b.hooks.sets[h], x) })
		}
		if len(set) == 0 {
			continue
		}
		set = append(set, w.Before...)
		sort.Strings(set)
		w.Before = slices.Compact(set)
		w.HookCalled = true
	}
}
