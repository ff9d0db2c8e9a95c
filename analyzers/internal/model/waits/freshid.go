package waits

// Fresh identifiers: the functions that return an identifier drawn at
// random, whose every call names something new.

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// FreshIDFact is exported for every function that returns an identifier
// drawn at random (a UUID, a random string): its first result is a
// string or bytes (a slice or an array of bytes: uuid.UUID), and its body
// calls crypto/rand, math/rand or math/rand/v2, reads crypto/rand.Reader
// (directly or through a package variable holding it), or calls another
// function with this fact. A request whose body carries such a value,
// made once before the retry, carries a key of its own there; an
// operation given one drawn in each pass is asked something new each time.
type FreshIDFact struct{}

func (*FreshIDFact) AFact() {}

func (*FreshIDFact) String() string { return "fresh id" }

// maxFreshRounds bounds the rounds that let one generator of the package
// call another.
const maxFreshRounds = 8

// findFreshIDs computes the package's fresh-identifier functions and
// exports their facts.
func (m *Result) findFreshIDs() {
	m.freshIDs = map[*types.Func]bool{}
	for round := 0; round < maxFreshRounds; round++ {
		changed := false
		for fn, d := range m.vals.Decls {
			if m.freshIDs[fn] || d.Body == nil || !idResult(fn.Signature()) {
				continue
			}
			if m.drawsRandom(d.Body) {
				m.freshIDs[fn] = true
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for fn := range m.freshIDs {
		m.pass.ExportObjectFact(fn, &FreshIDFact{})
	}
}

// idResult reports whether sig's first result can hold an identifier: a
// string, or a slice or array of bytes.
func idResult(sig *types.Signature) bool {
	return sig.Results().Len() > 0 && IDType(sig.Results().At(0).Type())
}

// IDType reports whether t can hold an identifier: a string, or bytes (a
// slice or an array of them, such as a UUID).
func IDType(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		return isByte(u.Elem())
	case *types.Array:
		return isByte(u.Elem())
	}
	return false
}

func isByte(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Byte || b.Kind() == types.Uint8)
}

// drawsRandom reports whether body (not its closures) draws from a random
// source: a call of crypto/rand, math/rand or math/rand/v2, a use of
// crypto/rand.Reader or of a package variable holding it, or a call of a
// fresh-identifier function.
func (m *Result) drawsRandom(body *ast.BlockStmt) bool {
	info := m.pass.TypesInfo
	return analysisutil.AnyIn([]ast.Node{body}, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			fn := analysisutil.Callee(info, x)
			return fn != nil && randPaths[analysisutil.PkgPath(fn)] || m.IsFreshID(x)
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			return ok && m.randReader(v)
		}
		return false
	})
}

// randReader reports whether v is crypto/rand.Reader or a package
// variable of this package declared with it (`var rander = rand.Reader`).
// A setter that replaces it with a reader its caller gives (`SetRand(r)`,
// for tests) leaves it the default source: still random.
func (m *Result) randReader(v *types.Var) bool {
	if isCryptoReader(v) {
		return true
	}
	if v.Pkg() != m.pass.Pkg || v.Parent() != m.pass.Pkg.Scope() {
		return false
	}
	if m.declaredRandReader(v) {
		return true
	}
	as := m.vals.Assigns[v]
	if len(as) == 0 {
		return false
	}
	for _, a := range as {
		sel, ok := analysisutil.Unparen(a.Value).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		rv, ok := m.pass.TypesInfo.Uses[sel.Sel].(*types.Var)
		if !ok || rv.Pkg() == nil || rv.Pkg().Path() != "crypto/rand" || rv.Name() != "Reader" {
			return false
		}
	}
	return true
}

// IsFreshID reports whether call draws a fresh random identifier: a call
// of crypto/rand, math/rand or math/rand/v2 whose result can hold one (a
// string or bytes: crypto/rand.Text), of a function with FreshIDFact (of
// this package or another), or through a function field the package sets
// only to such functions (freshField). A random number is no identifier.
func (m *Result) IsFreshID(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return m.freshField(call.Fun)
	}
	if randPaths[analysisutil.PkgPath(fn)] {
		return idResult(fn.Signature())
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		return m.freshIDs[fn]
	}
	var f FreshIDFact
	return m.pass.ImportObjectFact(fn, &f)
}

// freshField reports whether fun is an unexported function field of this
// package (`c.uid()`) every value the package gives which is a function
// that draws a fresh identifier (`if c.uid == nil { c.uid = newID }`).
// The package's tests may give it a stand-in (a constant id): what they
// give is not what the code draws.
func (m *Result) freshField(fun ast.Expr) bool {
	sel, ok := analysisutil.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := m.pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return false
	}
	f, ok := s.Obj().(*types.Var)
	if !ok || f.Exported() || f.Pkg() != m.pass.Pkg {
		return false
	}
	as := m.vals.Assigns[f]
	if len(as) == 0 {
		return false
	}
	n := 0
	for _, a := range as {
		if analysisutil.IsTestFile(m.pass, a.Pos) {
			continue // a test's stand-in says nothing of what the code draws
		}
		n++
		var id *ast.Ident
		switch v := analysisutil.Unparen(a.Value).(type) {
		case *ast.Ident:
			id = v
		case *ast.SelectorExpr:
			id = v.Sel
		default:
			return false // a literal, a parameter, nil: not known here
		}
		g, ok := m.pass.TypesInfo.Uses[id].(*types.Func)
		if !ok {
			return false
		}
		if g.Pkg() == m.pass.Pkg {
			if !m.freshIDs[g.Origin()] {
				return false
			}
			continue
		}
		var fact FreshIDFact
		if !m.pass.ImportObjectFact(g.Origin(), &fact) {
			return false
		}
	}
	return n > 0
}

// isCryptoReader reports whether v is crypto/rand.Reader.
func isCryptoReader(v *types.Var) bool {
	return v != nil && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" && v.Name() == "Reader"
}

// declaredRandReader reports whether the package variable v is declared
// with crypto/rand.Reader as its value.
func (m *Result) declaredRandReader(v *types.Var) bool {
	for _, a := range m.vals.Assigns[v] {
		if !a.Decl {
			continue
		}
		sel, ok := analysisutil.Unparen(a.Value).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		rv, _ := m.pass.TypesInfo.Uses[sel.Sel].(*types.Var)
		return isCryptoReader(rv)
	}
	return false
}
