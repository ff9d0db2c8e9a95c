package model

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"golang.org/x/tools/go/ast/inspector"
)

// KeepsFuncFact is exported for a function that keeps a function
// parameter to run later and never calls it itself: it stores it in a
// field, a map, a slice or a package variable (`c.onClose =
// append(c.onClose, f)`, `s.handlers[name] = h`), or hands it to a
// function that keeps it (this fact, or a catalog Deferred row such as
// time.AfterFunc). A closure passed there is a hook or a callback: what
// it does happens later, not in the function that writes it.
type KeepsFuncFact struct {
	Params []int
}

func (*KeepsFuncFact) AFact() {}

func (f *KeepsFuncFact) String() string { return fmt.Sprintf("keeps%v", f.Params) }

// maxKeepRounds bounds the rounds of findKeepers over helpers that hand a
// function to each other.
const maxKeepRounds = 8

// findKeepers computes the package's functions that keep a function
// parameter (KeepsFuncFact) and exports their facts.
func (m *builder) findKeepers() {
	m.keeps = map[*types.Func][]int{}
	info := m.pass.TypesInfo
	fns := m.vals.Funcs()
	for round := 0; round < maxKeepRounds; round++ {
		changed := false
		for _, fn := range fns {
			d := m.vals.Decls[fn]
			if d == nil || d.Body == nil {
				continue
			}
			params := fn.Type().(*types.Signature).Params()
			for i := range params.Len() {
				p := params.At(i)
				if _, ok := p.Type().Underlying().(*types.Signature); !ok || slices.Contains(m.keeps[fn], i) {
					continue
				}
				if m.keepsParam(info, d.Body, p) {
					m.keeps[fn] = append(m.keeps[fn], i)
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	for _, fn := range fns {
		if ps := m.keeps[fn]; len(ps) > 0 {
			slices.Sort(ps)
			m.pass.ExportObjectFact(fn, &KeepsFuncFact{Params: ps})
		}
	}
}

// keepsParam reports whether body keeps p (see KeepsFuncFact): some use
// stores it or hands it to a keeper, and no use calls it, passes it to
// another function or returns it.
func (m *builder) keepsParam(info *types.Info, body *ast.BlockStmt, p *types.Var) bool {
	isP := func(e ast.Expr) bool {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == p
	}
	stored := func(lhs ast.Expr) bool { return storedPlace(info, lhs) }
	kept, other := false, false
	// handled marks the uses of p that were judged by their parent.
	handled := map[*ast.Ident]bool{}
	mark := func(e ast.Expr) {
		if id, ok := analysisutil.Unparen(e).(*ast.Ident); ok {
			handled[id] = true
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			// A closure that uses p: what it does with it is not known here.
			ast.Inspect(x.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && info.Uses[id] == p {
					other = true
				}
				return !other
			})
			return false
		case *ast.AssignStmt:
			if len(x.Lhs) != len(x.Rhs) {
				return true
			}
			for i, r := range x.Rhs {
				switch {
				case isP(r) && stored(x.Lhs[i]):
					kept = true
					mark(r)
				case isAppendOf(info, r, isP) && stored(x.Lhs[i]):
					kept = true
					for _, a := range r.(*ast.CallExpr).Args[1:] {
						mark(a)
					}
				}
			}
		case *ast.CompositeLit:
			for _, e := range x.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				if isP(e) {
					kept = true
					mark(e)
				}
			}
		case *ast.CallExpr:
			if isP(x.Fun) {
				other = true // called here
				return false
			}
			for i, a := range x.Args {
				if isP(a) && m.keepsArg(x, i) {
					kept = true
					mark(a)
				}
			}
		case *ast.Ident:
			if info.Uses[x] == p && !handled[x] {
				other = true
			}
		}
		return !other
	})
	return kept && !other
}

// isAppendOf reports whether e is append(s, ...) with an added element
// that is(x).
func isAppendOf(info *types.Info, e ast.Expr, is func(ast.Expr) bool) bool {
	call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) < 2 {
		return false
	}
	if !isBuiltin(info, call.Fun, "append") {
		return false
	}
	return slices.ContainsFunc(call.Args[1:], is)
}

// identOf returns e as an identifier (parentheses removed), or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := analysisutil.Unparen(e).(*ast.Ident)
	return id
}

// keepsArg reports whether call's argument i is kept by the callee to run
// later: a catalog Deferred row, or a function with KeepsFuncFact.
func (m *builder) keepsArg(call *ast.CallExpr, i int) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return false
	}
	if row := catalogRow(fn); row != nil && row.Role == catalog.Deferred {
		return row.ValueArg == i
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		return slices.Contains(m.keeps[fn], i)
	}
	var f KeepsFuncFact
	return m.pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
}

// storedPlace reports whether lhs is a place outside the function: a
// field, an element of a map or slice, a package variable.
func storedPlace(info *types.Info, lhs ast.Expr) bool {
	switch x := analysisutil.Unparen(lhs).(type) {
	case *ast.SelectorExpr, *ast.IndexExpr:
		return true
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	}
	return false
}

// keptClosureVars returns the local function variables of file that the
// code only keeps for later (see KeepsFuncFact), returns or sends on a
// channel, and never calls: `cl := func() {...}; c.closer = cl`,
// `release := func() error {...}; return release, nil`.
func (m *builder) keptClosureVars(file inspector.Cursor) map[*types.Var]bool {
	info := m.pass.TypesInfo
	kept, other := map[*types.Var]bool{}, map[*types.Var]bool{}
	for c := range file.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		v, ok := info.Uses[id].(*types.Var)
		if !ok || !isLocal(v) {
			continue
		}
		if _, ok := v.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		keeps := false
		switch p := c.Parent().Node().(type) {
		case *ast.AssignStmt:
			for i, r := range p.Rhs {
				if r == ast.Expr(id) && len(p.Lhs) == len(p.Rhs) && storedPlace(info, p.Lhs[i]) {
					keeps = true
				}
			}
			if slices.Contains(p.Lhs, ast.Expr(id)) {
				continue // assigned, not used
			}
		case *ast.CallExpr:
			if p.Fun != ast.Expr(id) {
				for i, a := range p.Args {
					if a == ast.Expr(id) && (m.keepsArg(p, i) || i > 0 && isBuiltin(info, p.Fun, "append")) {
						keeps = true
					}
				}
			}
		case *ast.CompositeLit, *ast.KeyValueExpr, *ast.ReturnStmt:
			keeps = true // stored in a value, or handed to the caller
		case *ast.SendStmt:
			keeps = p.Value == ast.Expr(id) // handed to a receiver
		}
		if keeps {
			kept[v] = true
		} else {
			other[v] = true
		}
	}
	for v := range other {
		delete(kept, v)
	}
	return kept
}

func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	b, ok := info.Uses[identOf(fun)].(*types.Builtin)
	return ok && b.Name() == name
}
