package waits

// Delays computed by functions of other packages (DelayFact), and the
// functions a call of a function value runs when the caller configured
// none (defaultFuncs).

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// DelayFact is exported for a function (no method) whose one result is a
// time.Duration computed from its parameters and constants alone, with no
// random part, in a shape the model sees into (delayShapeOf): a delay of
// the caller's inputs (`func Doubling(n int) time.Duration`). A call of it
// in another package has that shape, its arguments giving the values. A
// function that reads a field or a package variable (a table its users
// may change) gets none.
type DelayFact struct {
	Exponential bool
	Capped      bool
}

func (*DelayFact) AFact() {}

func (f *DelayFact) String() string {
	return fmt.Sprintf("delay(exponential=%v, capped=%v)", f.Exponential, f.Capped)
}

// exportDelayFacts exports the DelayFacts of the package's functions.
func (m *Result) exportDelayFacts() {
	m.delays = map[*types.Func]*DelayFact{}
	for fn, d := range m.vals.Decls {
		if f := m.delayShapeOf(fn, d); f != nil {
			m.delays[fn] = f
			m.pass.ExportObjectFact(fn, f)
		}
	}
}

// delayShapeOf is the DelayFact of fn, declared by d; nil when it has
// none.
func (m *Result) delayShapeOf(fn *types.Func, d *ast.FuncDecl) *DelayFact {
	sig := fn.Signature()
	if d.Body == nil || sig.Recv() != nil || sig.TypeParams() != nil || sig.Results().Len() != 1 ||
		!analysisutil.IsNamedType(sig.Results().At(0).Type(), "time", "Duration") || m.randomFuncs[fn] {
		return nil
	}
	sh := m.shape(nil, d.Body, shapeOpts{of: d})
	if sh.Jitter != JitterNone || sh.Next != nil || sh.Lib != nil {
		return nil
	}
	return &DelayFact{Exponential: sh.Exponential, Capped: sh.Capped}
}

// delayFact returns the DelayFact of fn, of this package or another.
func (m *Result) delayFact(fn *types.Func) *DelayFact {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		return m.delays[fn]
	}
	var f DelayFact
	if m.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// isRandomFunc reports whether fn, called, draws at random (a function
// of math/rand, or one with a RandomFact).
func (m *Result) isRandomFunc(fn *types.Func) bool {
	return m.IsRandomCall(nil, fn)
}

// readsState reports whether exprs read a field or a package-level
// variable: state a caller may change between calls, no function of its
// inputs.
func (m *Result) readsState(exprs []ast.Expr) bool {
	info := m.pass.TypesInfo
	found := false
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
					found = true
				}
			case *ast.Ident:
				if v, ok := info.Uses[x].(*types.Var); ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// funcVal is a function a call of a function value may run: a declared
// one, of any package, or a literal. A literal a function of the package
// returned (`next := expBackoff(min, max)`) has that call (made): the
// literal reads its maker's parameters, whose values the call's
// arguments give.
type funcVal struct {
	fn   *types.Func
	lit  *ast.FuncLit
	made *ast.CallExpr
}

// maker returns the declaration of the function whose call made f's
// literal, or nil.
func (m *Result) maker(f funcVal) *ast.FuncDecl {
	if f.made == nil {
		return nil
	}
	fn := analysisutil.Callee(m.pass.TypesInfo, f.made)
	if fn == nil {
		return nil
	}
	return m.vals.Decls[fn.Origin()]
}

// defaultFuncs returns the functions a call of the function value fun
// runs when its caller configured none: fun is a local variable or the
// result of a helper of the package, whose values are functions, or a
// value the caller configures (a field, a parameter) that is taken only
// when it is set: `pause := o.Pause; if pause == nil { pause =
// steps.Doubling }`, or a helper `if f != nil { return f }; return
// steps.Doubling`. What a caller who sets nothing gets is the default.
// False when a value may be anything else (a configured value taken
// whether set or not, a field, a parameter).
func (m *Result) defaultFuncs(fun ast.Expr, depth int) ([]funcVal, bool) {
	info := m.pass.TypesInfo
	if depth > 4 {
		return nil, false
	}
	switch x := analysisutil.Unparen(fun).(type) {
	case *ast.FuncLit:
		return []funcVal{{lit: x}}, true
	case *ast.SelectorExpr:
		if _, ok := info.Selections[x]; !ok {
			if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
				return []funcVal{{fn: fn}}, true // steps.Doubling
			}
		}
		return nil, false
	case *ast.Ident:
		switch o := info.Uses[x].(type) {
		case *types.Func:
			return []funcVal{{fn: o}}, true
		case *types.Var:
			if !provenance.IsLocal(o) || len(m.vals.Assigns[o]) == 0 {
				return nil, false
			}
			body := m.bodyAt(o.Pos())
			if body == nil {
				return nil, false
			}
			// Assignments made only when the variable is nil give its
			// default; the others are the caller's values, taken when
			// set.
			defaulted := false
			for _, a := range m.vals.Assigns[o] {
				if nilTested(info, body, func(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && info.Uses[id] == o }, a.Pos, token.EQL) {
					defaulted = true
				}
			}
			var out []funcVal
			for _, a := range m.vals.Assigns[o] {
				if a.Value == nil {
					return nil, false
				}
				fs, ok := m.defaultFuncs(a.Value, depth+1)
				if !ok {
					if defaulted || m.takenWhenSet(body, a.Value, a.Pos) {
						continue // the caller's value, used when set
					}
					return nil, false
				}
				out = append(out, fs...)
			}
			return out, len(out) > 0
		}
		return nil, false
	case *ast.CallExpr:
		fn := analysisutil.Callee(info, x)
		if fn == nil || fn.Signature().Results().Len() != 1 {
			return nil, false
		}
		d := m.vals.Decls[fn.Origin()]
		if d == nil || d.Body == nil {
			return nil, false
		}
		var out []funcVal
		ok := true
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch r := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(r.Results) != 1 {
					ok = false
					return false
				}
				fs, known := m.defaultFuncs(r.Results[0], depth+1)
				switch {
				case known:
					for _, f := range fs {
						if f.lit != nil && f.made == nil {
							f.made = x
						}
						out = append(out, f)
					}
				case !m.takenWhenSet(d.Body, r.Results[0], r.Pos()):
					ok = false
				}
			}
			return ok
		})
		return out, ok && len(out) > 0
	}
	return nil, false
}

// hookReturns returns the returns of body that call a function value the
// caller configures, taken only when it is set (`if c.Wait != nil {
// return c.Wait(n) }; return c.Backoff`), when body has a return of
// another value: that one is the delay of a caller who sets no function,
// the default, as in defaultFuncs.
//
// What the hook answered may pass through a local first (`if c.Wait !=
// nil { d := c.Wait(n); if d < 0 { return 0 }; return d }`): a return of
// a local of body whose every value is such a call is the hook's too.
func (m *Result) hookReturns(body *ast.BlockStmt) map[*ast.ReturnStmt]bool {
	info := m.pass.TypesInfo
	hookCall := func(e ast.Expr, pos token.Pos) bool {
		call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
		return ok && analysisutil.Callee(info, call) == nil && m.takenWhenSet(body, call.Fun, pos)
	}
	fromHook := func(e ast.Expr) bool {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || !provenance.IsLocal(v) || v.Pos() < body.Pos() || v.Pos() >= body.End() {
			return false
		}
		as := m.vals.Assigns[v]
		return len(as) > 0 && !slices.ContainsFunc(as, func(a provenance.Assign) bool { return a.Value == nil || !hookCall(a.Value, a.Pos) })
	}
	var hooks map[*ast.ReturnStmt]bool
	others := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch r := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(r.Results) != 1 {
				return true
			}
			res := r.Results[0]
			if hookCall(res, r.Pos()) || fromHook(res) {
				if hooks == nil {
					hooks = map[*ast.ReturnStmt]bool{}
				}
				hooks[r] = true
			} else {
				others = true
			}
		}
		return true
	})
	if !others {
		return nil
	}
	return hooks
}

// takenWhenSet reports whether the value e, read at pos, is read there
// only when it is set: pos is inside the body of an `if e != nil`.
func (m *Result) takenWhenSet(body *ast.BlockStmt, e ast.Expr, pos token.Pos) bool {
	info := m.pass.TypesInfo
	want := types.ExprString(e)
	root := analysisutil.ReferredObject(info, e)
	if root == nil {
		return false
	}
	return nilTested(info, body, func(x ast.Expr) bool {
		return types.ExprString(x) == want && analysisutil.ReferredObject(info, x) == root
	}, pos, token.NEQ)
}

// nilTested reports whether pos is inside the body of an if statement of
// body whose condition is `x op nil` (or `nil op x`) for an x that is(x).
func nilTested(info *types.Info, body *ast.BlockStmt, is func(ast.Expr) bool, pos token.Pos, op token.Token) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if found || !ok || pos < ifs.Body.Pos() || pos >= ifs.Body.End() {
			return !found
		}
		if be, ok := analysisutil.Unparen(ifs.Cond).(*ast.BinaryExpr); ok && be.Op == op {
			for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
				if info.Types[pair[1]].IsNil() && is(analysisutil.Unparen(pair[0])) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// bodyAt returns the body of the function of the package declared around
// pos.
func (m *Result) bodyAt(pos token.Pos) *ast.BlockStmt {
	for _, d := range m.vals.Decls {
		if d.Body != nil && d.Body.Pos() <= pos && pos < d.Body.End() {
			return d.Body
		}
	}
	return nil
}
