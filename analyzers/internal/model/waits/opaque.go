package waits

// What a delay's shape follows and what it cannot see into: values from
// another package, a field or a parameter (opaque), function fields the
// package alone sets, schedules of durations, and later results of a call.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// opaque reports whether the duration comes from somewhere the model
// cannot judge: a call of another package's function, a field, a
// parameter.
func (m *Result) opaque(exprs []ast.Expr, helpers []*ast.FuncDecl, lits []*ast.FuncLit, counters map[types.Object]bool) bool {
	inHelper := func(pos token.Pos) bool {
		for _, d := range helpers {
			if d.Pos() <= pos && pos < d.End() {
				return true
			}
		}
		for _, l := range lits {
			if l.Pos() <= pos && pos < l.End() {
				return true
			}
		}
		return false
	}
	info := m.pass.TypesInfo
	opaque := false
	var visitOpaque func(n ast.Node) bool
	visitOpaque = func(n ast.Node) bool {
		if opaque {
			return false
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			if tv := info.Types[x.Fun]; tv.IsType() {
				return true
			}
			if row, _ := m.nextDelay(x); row != nil {
				return false // judged by libJitter
			}
			fn := analysisutil.Callee(info, x)
			if fn == nil {
				if id, ok := analysisutil.Unparen(x.Fun).(*ast.Ident); ok {
					if _, isB := info.Uses[id].(*types.Builtin); isB {
						return true
					}
				}
				if funcs, ok := m.defaultFuncs(x.Fun, 0); ok && !slices.ContainsFunc(funcs, func(f funcVal) bool {
					return f.lit == nil && m.vals.Decls[f.fn] == nil && m.delayFact(f.fn) == nil && !m.isRandomFunc(f.fn)
				}) {
					// pause(i) with a default the model sees into: its
					// returns were followed; the arguments give the
					// values, and those of the call that made it, its
					// maker's parameters.
					for _, a := range x.Args {
						ast.Inspect(a, visitOpaque)
					}
					for _, f := range funcs {
						if f.made != nil {
							for _, a := range f.made.Args {
								ast.Inspect(a, visitOpaque)
							}
						}
					}
					return false
				}
				if _, ok := m.fieldFuncs(x.Fun); ok {
					// A function field the package alone sets, followed
					// into the functions it holds: the arguments give
					// the values.
					for _, a := range x.Args {
						ast.Inspect(a, visitOpaque)
					}
					return false
				}
				opaque = true
			} else if m.vals.Decls[fn] == nil && analysisutil.PkgPath(fn) != "time" && analysisutil.PkgPath(fn) != "math" && analysisutil.PkgPath(fn) != catalog.ResilintRetry && m.delayFact(fn) == nil {
				opaque = true
			} else if m.vals.Decls[fn] != nil || m.delayFact(fn) != nil {
				// A helper of this package, followed into its
				// returns: the receiver it is called on gives no
				// value of its own; the arguments do, but for a
				// configuration handed over whole (delayFor(c.conf,
				// n)), whose fields the helper reads and is judged by.
				for _, a := range x.Args {
					if t := info.TypeOf(a); t != nil && !durationLike(t) && isStructLike(t) && m.fieldPath(a, 0) {
						continue
					}
					ast.Inspect(a, visitOpaque)
				}
				return false
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
				if m.configuredField(x) {
					return false // c.conf.Retry.Backoff: a configured number
				}
				opaque = true
			}
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && provenance.IsLocal(v) && len(m.vals.Assigns[v]) == 0 && !inHelper(v.Pos()) && !counters[v] && m.scheduleOf(v) == nil {
				opaque = true // a parameter of the retrying function
			}
			if v, ok := info.Uses[x].(*types.Var); ok && provenance.IsLocal(v) && durationLike(v.Type()) && slices.ContainsFunc(m.vals.Assigns[v], func(a provenance.Assign) bool {
				return a.Value == nil && (a.Tuple == nil || m.resultBodies(a.Tuple, a.Result) == nil)
			}) {
				// again, wait := policy(err): a later result of a call
				// the model cannot follow into (a function value, a
				// function of another package, a bare return).
				opaque = true
			}
		}
		return true
	}
	for _, e := range exprs {
		ast.Inspect(e, visitOpaque)
	}
	return opaque
}

// isStructLike reports whether t is a struct or a pointer to one.
func isStructLike(t types.Type) bool {
	_, ok := analysisutil.Deref(t).Underlying().(*types.Struct)
	return ok
}

// fieldPath reports whether e is a variable or a chain of field
// selections from one (c, c.conf, c.conf.Retry, &c.conf), through the
// package's getters (c.Config()).
func (m *Result) fieldPath(e ast.Expr, depth int) bool {
	info := m.pass.TypesInfo
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := info.Uses[x].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
			return m.fieldPath(x.X, depth)
		}
		_, ok := info.Uses[x.Sel].(*types.Var) // a package-level variable
		return ok
	case *ast.StarExpr:
		return m.fieldPath(x.X, depth)
	case *ast.UnaryExpr:
		return x.Op == token.AND && m.fieldPath(x.X, depth) // &c.conf
	case *ast.CallExpr:
		// c.Config().Wait: a getter of the package, given nothing, whose
		// body only returns a field path (`return c.cfg`); or a method of
		// an interface of the package that every type of the package
		// implementing it implements with such a getter (a client held
		// as its interface: `t.client.Config()`).
		fn := analysisutil.Callee(info, x)
		if fn == nil || len(x.Args) > 0 || depth > 4 {
			return false
		}
		if analysisutil.IsInterfaceMethod(fn) {
			impls := m.implementations(fn)
			for _, f := range impls {
				if !m.getter(f, depth) {
					return false
				}
			}
			return len(impls) > 0
		}
		return m.getter(fn, depth)
	}
	return false
}

// getter reports whether fn, a function of the package, only returns a
// field path (`return c.cfg`).
func (m *Result) getter(fn *types.Func, depth int) bool {
	d := m.vals.Decls[fn.Origin()]
	if d == nil || d.Body == nil || len(d.Body.List) != 1 {
		return false
	}
	ret, ok := d.Body.List[0].(*ast.ReturnStmt)
	return ok && len(ret.Results) == 1 && m.fieldPath(ret.Results[0], depth+1)
}

// implementations returns analysisutil.Implementations of fn, memoized.
func (m *Result) implementations(fn *types.Func) []*types.Func {
	m.implMu.Lock()
	defer m.implMu.Unlock()
	if got, ok := m.impls[fn]; ok {
		return got
	}
	out := analysisutil.Implementations(m.pass.Pkg, fn)
	if m.impls == nil {
		m.impls = map[*types.Func][]*types.Func{}
	}
	m.impls[fn] = out
	return out
}

// configuredField reports whether x is a numeric field the package never
// sets from a random draw, read through fields, package variables and the
// package's getters (`c.conf.Retry.Backoff`, `c.Config().Wait`): a
// configured number.
func (m *Result) configuredField(x *ast.SelectorExpr) bool {
	sel, ok := m.pass.TypesInfo.Selections[x]
	if !ok || sel.Kind() != types.FieldVal {
		return false
	}
	f, ok := sel.Obj().(*types.Var)
	return ok && m.fixedField(f) && m.fieldPath(x.X, 0)
}

// fieldFuncs returns the functions a call of the function field fun can
// run, when the package alone decides them: the field is unexported,
// every value the package gives it is a function literal or a function
// declared here, and no unkeyed composite literal sets it (`c.delay =
// func(n int) time.Duration { ... }` in the constructor, called as
// c.delay(n)).
func (m *Result) fieldFuncs(fun ast.Expr) ([]ast.Node, bool) {
	info := m.pass.TypesInfo
	sel, ok := analysisutil.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil, false
	}
	f, ok := s.Obj().(*types.Var)
	if !ok || f.Exported() || f.Pkg() != m.pass.Pkg {
		return nil, false
	}
	if _, ok := f.Type().Underlying().(*types.Signature); !ok {
		return nil, false
	}
	m.unkeyedOnce.Do(func() { m.unkeyed = m.findUnkeyedFields() })
	if m.unkeyed[f] {
		return nil, false
	}
	writes := m.vals.Assigns[f]
	if len(writes) == 0 {
		return nil, false
	}
	var funcs []ast.Node
	for _, w := range writes {
		switch v := analysisutil.Unparen(w.Value).(type) {
		case *ast.FuncLit:
			funcs = append(funcs, v)
		case *ast.Ident, *ast.SelectorExpr:
			var id *ast.Ident
			if x, ok := v.(*ast.Ident); ok {
				id = x
			} else {
				id = v.(*ast.SelectorExpr).Sel
			}
			fn, ok := info.Uses[id].(*types.Func)
			if !ok || m.vals.Decls[fn] == nil {
				return nil, false
			}
			funcs = append(funcs, m.vals.Decls[fn])
		default:
			return nil, false // nil, a parameter, another field: not known here
		}
	}
	return funcs, true
}

// findUnkeyedFields lists the fields that unkeyed composite literals of
// the package set (T{a, b, c}): their values are not in the provenance
// index.
func (m *Result) findUnkeyedFields() map[*types.Var]bool {
	info := m.pass.TypesInfo
	out := map[*types.Var]bool{}
	for _, file := range m.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || len(lit.Elts) == 0 {
				return true
			}
			if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); keyed {
				return true
			}
			tv, ok := info.Types[lit]
			if !ok {
				return true
			}
			st, ok := tv.Type.Underlying().(*types.Struct)
			if !ok {
				if p, isPtr := tv.Type.Underlying().(*types.Pointer); isPtr {
					st, ok = p.Elem().Underlying().(*types.Struct)
				}
			}
			if !ok {
				return true
			}
			for i := range st.NumFields() {
				out[st.Field(i)] = true
			}
			return true
		})
	}
	return out
}

// scheduleOf returns the schedule v ranges over when v is the value of a
// range over a slice or array of time.Duration (`for _, d := range
// backoffSchedule`): its delays are the schedule's elements. Nil
// otherwise. The package's ranges are indexed on first use.
func (m *Result) scheduleOf(v *types.Var) ast.Expr {
	m.schedOnce.Do(func() {
		m.schedules = map[*types.Var]ast.Expr{}
		info := m.pass.TypesInfo
		for _, f := range m.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				rs, ok := n.(*ast.RangeStmt)
				if !ok || rs.Value == nil {
					return true
				}
				id, ok := rs.Value.(*ast.Ident)
				if !ok {
					return true
				}
				if rv, ok := info.ObjectOf(id).(*types.Var); ok && IsSchedule(info.TypeOf(rs.X)) {
					m.schedules[rv] = rs.X
				}
				return true
			})
		}
	})
	return m.schedules[v]
}

// IsSchedule reports whether t is a slice or array of time.Duration: a
// schedule of delays.
func IsSchedule(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return analysisutil.IsNamedType(u.Elem(), "time", "Duration")
	case *types.Array:
		return analysisutil.IsNamedType(u.Elem(), "time", "Duration")
	}
	return false
}

// durationLike reports whether t can hold a delay or what one is
// computed from: a number (time.Duration among them) or a time.Time.
// An error or a flag handed to a delay helper beside the duration
// (`backoff(d, err)`) decides no part of the delay's value.
func durationLike(t types.Type) bool {
	if analysisutil.IsNamedType(t, "time", "Time") {
		return true
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// resultBodies returns the functions whose returns give result i of
// call: the function of this package it calls, or those a function
// field the package alone sets holds (fieldFuncs). Nil when any of them
// is another package's, or returns with no result list (named results)
// or the results of another call: the value is not known.
func (m *Result) resultBodies(call *ast.CallExpr, i int) []ast.Node {
	key := resultKey{call, i}
	m.resultsMu.Lock()
	defer m.resultsMu.Unlock()
	if funcs, ok := m.results[key]; ok {
		return funcs
	}
	if m.results == nil {
		m.results = map[resultKey][]ast.Node{}
	}
	funcs := m.resultBodies1(call, i)
	m.results[key] = funcs
	return funcs
}

// resultBodies1 is resultBodies, not memoized.
func (m *Result) resultBodies1(call *ast.CallExpr, i int) []ast.Node {
	var funcs []ast.Node
	if fn := analysisutil.Callee(m.pass.TypesInfo, call); fn != nil {
		d := m.vals.Decls[fn.Origin()]
		if d == nil {
			return nil
		}
		funcs = []ast.Node{d}
	} else if fs, ok := m.fieldFuncs(call.Fun); ok {
		funcs = fs
	} else {
		return nil
	}
	for _, f := range funcs {
		// return: named results; return g(): g's results.
		if body := funcBody(f); body == nil || !resultsOf(body, i, func(ast.Expr) {}) {
			return nil
		}
	}
	return funcs
}

// funcBody is the body of a function declaration or literal.
func funcBody(f ast.Node) *ast.BlockStmt {
	switch f := f.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}

// resultsOf calls f with result i of every return of body (not of its
// function literals) that lists it, and reports whether every return
// does.
func resultsOf(body *ast.BlockStmt, i int, f func(ast.Expr)) bool {
	every := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch r := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if i < len(r.Results) {
				f(r.Results[i])
			} else {
				every = false
			}
		}
		return true
	})
	return every
}
