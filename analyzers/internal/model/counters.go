package model

// Count bounds: the counters a loop steps and compares, and the policies
// and budgets that count its attempts for it.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// countBounded reports whether a loop compares a counter it advances
// (x++, x--, x += n, x -= n) with anything: an attempt limit, constant or
// configured.
func (m *builder) countBounded(stmt ast.Stmt, ops []ast.Node) bool {
	info := m.pass.TypesInfo
	if rs, ok := stmt.(*ast.RangeStmt); ok {
		if b, ok := info.TypeOf(rs.X).Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return true
		}
		if waits.IsSchedule(info.TypeOf(rs.X)) {
			return true // a pass per delay of a schedule
		}
	}
	nodes := append([]ast.Node{stmt}, ops...)
	counters := map[types.Object]bool{}
	objOf := func(e ast.Expr) types.Object {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			return info.ObjectOf(x)
		case *ast.SelectorExpr:
			return info.Uses[x.Sel]
		}
		return nil
	}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if e := steppedBy(n); e != nil {
				if obj := objOf(e); obj != nil {
					counters[obj] = true
				}
			}
			switch x := n.(type) {
			case *ast.CallExpr:
				// backOff(&tries): a function of the package that steps
				// the counter through the pointer it is given.
				for i, a := range x.Args {
					if u, ok := analysisutil.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND && m.stepsParam(analysisutil.Callee(info, x), i) {
						if obj := objOf(u.X); obj != nil {
							counters[obj] = true
						}
					}
				}
			}
			return true
		})
	}
	found := false
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && !found && (givesVerdict(info, c) || m.nilVerdict(c)) {
				// wait, retry := b.Next(n): a policy given the count
				// says whether to go on; the bound is its own.
				for _, a := range c.Args {
					if obj := objOf(a); obj != nil && counters[obj] {
						found = true
					}
				}
				// c.retry.Attempt(q): a policy the model cannot see
				// into, given the request rather than the error, may
				// count what the request carries: its bound is
				// unknown, not absent. (Given only the error, it
				// classifies and counts nothing, unless it also answers
				// how long to wait: `again, wait := r.policy(err)` is a
				// backoff policy, which steps as it is asked, a closure
				// or a value counting the failures it is shown.)
				if !found && opaqueCall(info, c) {
					answersWait := slices.ContainsFunc(waits.Results(info, c), func(t types.Type) bool { return analysisutil.IsNamedType(t, "time", "Duration") })
					givenErr := slices.ContainsFunc(c.Args, func(a ast.Expr) bool { return analysisutil.IsErrorType(info.TypeOf(a)) })
					found = answersWait || !givenErr
				}
				// b.Take(): a method of the package that counts a field
				// of its receiver and tests it (a retry budget).
				if !found && m.countsReceiver(analysisutil.Callee(info, c)) {
					found = true
				}
			}
			if be, ok := n.(*ast.BinaryExpr); ok && !found {
				switch be.Op {
				case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
					ast.Inspect(be, func(n ast.Node) bool {
						if e, ok := n.(ast.Expr); ok {
							if obj := objOf(e); obj != nil && counters[obj] {
								found = true
							}
						}
						return !found
					})
				}
			}
			return !found
		})
	}
	return found
}

// stepsParam reports whether fn, a function of the package, steps the
// value its parameter i points at: *p++, *p--, *p += n, *p -= n.
func (m *builder) stepsParam(fn *types.Func, i int) bool {
	if fn == nil || fn.Pkg() != m.pass.Pkg {
		return false
	}
	key := stepKey{fn.Origin(), i}
	if v, ok := m.steps[key]; ok {
		return v
	}
	v := m.stepsParam1(fn, i)
	if m.steps == nil {
		m.steps = map[stepKey]bool{}
	}
	m.steps[key] = v
	return v
}

// stepKey is a function and the index of a parameter of it.
type stepKey struct {
	fn *types.Func
	i  int
}

// stepsParam1 is stepsParam, not memoized: it walks fn's body.
func (m *builder) stepsParam1(fn *types.Func, i int) bool {
	d := m.vals.Decls[fn.Origin()]
	sig, _ := fn.Type().(*types.Signature)
	if d == nil || d.Body == nil || sig == nil || i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
		return false
	}
	info := m.pass.TypesInfo
	p := sig.Params().At(i)
	deref := func(e ast.Expr) bool {
		st, ok := analysisutil.Unparen(e).(*ast.StarExpr)
		if !ok {
			return false
		}
		id, ok := analysisutil.Unparen(st.X).(*ast.Ident)
		return ok && info.Uses[id] == p
	}
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if e := steppedBy(n); e != nil {
			found = deref(e)
		}
		return !found
	})
	return found
}

// steppedBy returns the expression n steps as a counter: x in x++, x--,
// x += k and x -= k; nil for any other node.
func steppedBy(n ast.Node) ast.Expr {
	switch x := n.(type) {
	case *ast.IncDecStmt:
		return x.X
	case *ast.AssignStmt:
		if (x.Tok == token.ADD_ASSIGN || x.Tok == token.SUB_ASSIGN) && len(x.Lhs) == 1 {
			return x.Lhs[0]
		}
	}
	return nil
}

// countsReceiver reports whether fn is a method of the package that
// steps a field of its receiver (`b.left--`, `b.used += n`) and compares
// that field: it answers from a count it keeps, a budget.
func (m *builder) countsReceiver(fn *types.Func) bool {
	if fn == nil || fn.Pkg() != m.pass.Pkg {
		return false
	}
	d := m.vals.Decls[fn]
	if d == nil || d.Body == nil || d.Recv == nil || len(d.Recv.List) == 0 || len(d.Recv.List[0].Names) == 0 {
		return false
	}
	info := m.pass.TypesInfo
	recv := info.Defs[d.Recv.List[0].Names[0]]
	field := func(e ast.Expr) *types.Var {
		sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); !ok || recv == nil || info.Uses[id] != recv {
			return nil
		}
		v, _ := info.Uses[sel.Sel].(*types.Var)
		return v
	}
	stepped := map[*types.Var]bool{}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if e := steppedBy(n); e != nil {
			if v := field(e); v != nil {
				stepped[v] = true
			}
		}
		return true
	})
	if len(stepped) == 0 {
		return false
	}
	compared := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if be, ok := n.(*ast.BinaryExpr); ok {
			switch be.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
				if v := field(be.X); v != nil && stepped[v] {
					compared = true
				}
				if v := field(be.Y); v != nil && stepped[v] {
					compared = true
				}
			}
		}
		return !compared
	})
	return compared
}

// opaqueCall reports whether call is one the model cannot see into: a
// function value, or a method of an interface.
func opaqueCall(info *types.Info, call *ast.CallExpr) bool {
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		tv, ok := info.Types[call.Fun]
		return ok && !tv.IsType() && !tv.IsBuiltin()
	}
	return analysisutil.IsInterfaceMethod(fn)
}

// nilVerdict reports whether call is of a function of the package
// that answers "stop" with a nil pointer: a result of pointer type that
// some return of its body gives as nil (`next := st.step(p)`, nil once
// the tries are used up, else the wait before the next).
func (m *builder) nilVerdict(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() != m.pass.Pkg {
		return false
	}
	if v, ok := m.nilVerdicts[fn.Origin()]; ok {
		return v
	}
	v := m.nilVerdict1(fn)
	if m.nilVerdicts == nil {
		m.nilVerdicts = map[*types.Func]bool{}
	}
	m.nilVerdicts[fn.Origin()] = v
	return v
}

// nilVerdict1 is nilVerdict, not memoized: it walks fn's body.
func (m *builder) nilVerdict1(fn *types.Func) bool {
	d := m.vals.Decls[fn.Origin()]
	sig, _ := fn.Origin().Type().(*types.Signature)
	if d == nil || d.Body == nil || sig == nil {
		return false
	}
	var ptrs []int
	for i := range sig.Results().Len() {
		if _, ok := sig.Results().At(i).Type().Underlying().(*types.Pointer); ok {
			ptrs = append(ptrs, i)
		}
	}
	if len(ptrs) == 0 {
		return false
	}
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == sig.Results().Len() {
			for _, i := range ptrs {
				if isNilIdent(m.pass.TypesInfo, ret.Results[i]) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// givesVerdict reports whether call returns a bool among its results: an
// answer such as "go on" or "stop".
func givesVerdict(info *types.Info, call *ast.CallExpr) bool {
	switch t := info.TypeOf(call).(type) {
	case *types.Tuple:
		for v := range t.Variables() {
			if analysisutil.IsBool(v.Type()) {
				return true
			}
		}
		return false
	case nil:
		return false
	default:
		return analysisutil.IsBool(t)
	}
}
