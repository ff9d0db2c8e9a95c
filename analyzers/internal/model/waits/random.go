package waits

// Random draws: whether a duration has a random part, a generator seeded
// with constants, and the fields a package sets from a random draw.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

func (m *Result) isRandom(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if fn := analysisutil.Callee(m.pass.TypesInfo, c); fn != nil && (m.IsRandomCall(c, fn) || analysisutil.IsFunc(fn, catalog.ResilintRetry, "FullJitter")) {
				found = true
			}
		}
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := m.pass.TypesInfo.Uses[id].(*types.Var); ok && provenance.IsLocal(v) {
				for _, a := range m.vals.Assigns[v] {
					if a.Value != nil && a.Value != e && m.isRandomShallow(a.Value) {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

func (m *Result) isRandomShallow(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if fn := analysisutil.Callee(m.pass.TypesInfo, c); fn != nil && m.IsRandomCall(c, fn) {
				found = true
			}
		}
		return !found
	})
	return found
}

// constSeeded reports whether a random call draws from a generator made
// with a constant seed: rand.New(rand.NewSource(42)).
func (m *Result) constSeeded(call *ast.CallExpr) (token.Pos, bool) {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return token.NoPos, false
	}
	if _, isPkg := m.pass.TypesInfo.Uses[identOf(sel.X)].(*types.PkgName); isPkg {
		return token.NoPos, false // the package-level generator
	}
	for _, o := range m.vals.Trace(sel.X) {
		c, ok := analysisutil.Unparen(o.Expr).(*ast.CallExpr)
		if !ok {
			continue
		}
		fn := analysisutil.Callee(m.pass.TypesInfo, c)
		if fn == nil || !randPaths[analysisutil.PkgPath(fn)] || fn.Name() != "New" || len(c.Args) != 1 {
			continue
		}
		src, ok := analysisutil.Unparen(c.Args[0]).(*ast.CallExpr)
		if !ok {
			continue
		}
		allConst := len(src.Args) > 0
		for _, a := range src.Args {
			if m.pass.TypesInfo.Types[a].Value == nil {
				allConst = false
			}
		}
		if allConst {
			return src.Pos(), true
		}
	}
	return token.NoPos, false
}

// fixedField reports whether the field f holds a plain number (a
// time.Duration, a count) that the package never sets from a random
// draw: a configured delay, the same for every retry of every client
// that shares the configuration, so a wait of it has no jitter whatever
// its value. A function or interface field is a policy that may jitter.
// Nor is one the package sets from a response (a Retry-After parsed into
// an error's field): the server's word, not a configuration; nor one it
// sets from a call of a function value or an interface method
// (`r.wait = r.policy(r)`): that policy's answer, which may jitter.
func (m *Result) fixedField(f *types.Var) bool {
	b, ok := f.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsNumeric == 0 {
		return false
	}
	m.randomOnce.Do(func() { m.randomFields = m.findRandomFields() })
	return !m.randomFields[f]
}

// findRandomFields lists the fields the package assigns, in a statement
// or a composite literal, a value with a random draw, one read from an
// HTTP response, or one a policy the layer cannot see into computes.
func (m *Result) findRandomFields() map[*types.Var]bool {
	info := m.pass.TypesInfo
	out := map[*types.Var]bool{}
	mark := func(lhs ast.Expr, value ast.Expr) {
		if f, ok := analysisutil.ReferredObject(info, lhs).(*types.Var); ok && f.IsField() && (m.isRandom(value) || m.fromResponse(value, 0) || m.fromPolicy(value)) {
			out[f] = true
		}
	}
	for _, file := range m.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if len(x.Lhs) == len(x.Rhs) {
					for i := range x.Lhs {
						mark(x.Lhs[i], x.Rhs[i])
					}
				}
			case *ast.CompositeLit:
				for _, e := range x.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						mark(kv.Key, kv.Value)
					}
				}
			}
			return true
		})
	}
	return out
}

// sameBase reports whether the random part rnd of a delay is drawn up to
// the fixed part f, the same expression: `half + rand.Int63n(int64(half))`,
// `d/2 + time.Duration(rand.Float64()*float64(d/2))`, `d + j` with `j :=
// rand.N(d)`. A random part scaled otherwise (`lo + rand.Float64()*(hi-lo)`,
// `d + rand.N(d/4)`) is a spread of its own size.
func (m *Result) sameBase(f, rnd ast.Expr) bool {
	info := m.pass.TypesInfo
	if tv, ok := info.Types[f]; ok && tv.Value != nil {
		return false
	}
	b := m.drawBound(rnd, 0)
	return b != nil && types.ExprString(Unconvert(info, f)) == types.ExprString(b)
}

// DrawBound returns what the random value e is drawn up to (drawBound),
// or nil.
func (m *Result) DrawBound(e ast.Expr) ast.Expr { return m.drawBound(e, 0) }

// drawBound returns what a random value is drawn up to: the argument of a
// random call (rand.Int63n(int64(x)), rand.N(x), retry.FullJitter(x)),
// or the factor of a draw in [0, 1) (rand.Float64()*x), conversions
// stripped, through a local assigned once; nil when not of that form.
func (m *Result) drawBound(e ast.Expr, depth int) ast.Expr {
	info := m.pass.TypesInfo
	e = analysisutil.Unparen(Unconvert(info, e))
	switch x := e.(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok || !provenance.IsLocal(v) || depth > 2 || len(m.vals.Assigns[v]) != 1 || m.vals.Assigns[v][0].Value == nil {
			return nil
		}
		return m.drawBound(m.vals.Assigns[v][0].Value, depth+1)
	case *ast.CallExpr:
		if len(x.Args) == 1 && m.drawCall(x) {
			return analysisutil.Unparen(Unconvert(info, x.Args[0]))
		}
	case *ast.BinaryExpr:
		if x.Op != token.MUL {
			return nil
		}
		for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
			if c, ok := analysisutil.Unparen(Unconvert(info, pair[0])).(*ast.CallExpr); ok && len(c.Args) == 0 && m.drawCall(c) {
				return analysisutil.Unparen(Unconvert(info, pair[1]))
			}
		}
	}
	return nil
}

// drawCall reports whether call itself draws a random value (not one of
// its arguments): a random function, or runtime/retry's FullJitter.
func (m *Result) drawCall(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	return fn != nil && (m.IsRandomCall(call, fn) || analysisutil.IsFunc(fn, catalog.ResilintRetry, "FullJitter"))
}

// fromResponse reports whether e reads an HTTP response (its header, its
// status, its body), directly or through local variables assigned from
// one (`s, _ := strconv.Atoi(resp.Header.Get("Retry-After"))`), depth
// levels deep.
func (m *Result) fromResponse(e ast.Expr, depth int) bool {
	if depth > 3 {
		return false
	}
	info := m.pass.TypesInfo
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		x, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if t := info.TypeOf(x); t != nil && (analysisutil.IsNamedType(t, "net/http", "Response") || analysisutil.IsNamedType(t, "net/http", "Header")) {
			found = true
			return false
		}
		if id, ok := x.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && provenance.IsLocal(v) {
				for _, a := range m.vals.Assigns[v] {
					if a.Value != nil && a.Value != ast.Expr(id) && m.fromResponse(a.Value, depth+1) {
						found = true
						return false
					}
				}
			}
		}
		return true
	})
	return found
}

// fromPolicy reports whether e is a call of a function value or an
// interface method (not a conversion): a policy the layer cannot see
// into.
func (m *Result) fromPolicy(e ast.Expr) bool {
	call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if tv, ok := m.pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
		return false
	}
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	return fn == nil || analysisutil.IsInterfaceMethod(fn)
}
