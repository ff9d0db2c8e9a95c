package provenance

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// Values indexes, for the whole package, every value assigned to each
// variable and struct field, and every `x.Field = v` write, so that a
// client, backoff or policy can be traced from where it is used to where
// it was made, through locals, struct fields and helper functions.
type Values struct {
	Info     *types.Info
	Assigns  map[types.Object][]Assign // values given to a variable or field
	ZeroDecl map[*ast.Ident]bool       // `var x T` without a value: x is the zero value
	FieldSet map[types.Object][]FieldWrite
	Decls    map[*types.Func]*ast.FuncDecl
	// Elements holds the variables and fields whose elements some
	// statement writes (`opts[0] = x`) or whose address is taken: what
	// their literal held may have changed.
	Elements map[types.Object]bool

	pkg        *types.Package
	consts     map[*types.Var]int64 // the package's constant variables (ConstFact)
	importFact func(types.Object, analysis.Fact) bool
}

// Assign is one value given to a variable or field; value is nil when it
// cannot be followed (one result of a multi-value call).
type Assign struct {
	Pos   token.Pos
	Value ast.Expr
	// Tuple and Result, for a later result of a call assigned with
	// others (`again, wait := policy(err)`, wait: Result 1): Value is
	// nil, and the call is Tuple.
	Tuple  *ast.CallExpr
	Result int
	// Decl: the value is the one the variable is declared with (`var x
	// = v`, or its zero value when there is none).
	Decl bool
}

type FieldWrite struct {
	Field string
	Value ast.Expr
	Pos   token.Pos
}

func New(info *types.Info, files []*ast.File) *Values {
	v := &Values{
		Info:     info,
		Assigns:  map[types.Object][]Assign{},
		ZeroDecl: map[*ast.Ident]bool{},
		FieldSet: map[types.Object][]FieldWrite{},
		Decls:    map[*types.Func]*ast.FuncDecl{},
		Elements: map[types.Object]bool{},
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if fn, ok := info.Defs[n.Name].(*types.Func); ok && n.Body != nil {
					v.Decls[fn] = n
				}
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
					return true
				}
				for _, l := range n.Lhs {
					if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
						if base := v.ObjOf(ix.X); base != nil {
							v.Elements[base] = true
						}
					}
				}
				for i, l := range n.Lhs {
					var rhs ast.Expr
					switch {
					case len(n.Lhs) == len(n.Rhs):
						rhs = n.Rhs[i]
					case i == 0 && len(n.Rhs) == 1:
						// x, err := f(): x is f's first result; v, ok :=
						// x.(T), m[k], <-ch: v is the first.
						switch ast.Unparen(n.Rhs[0]).(type) {
						case *ast.CallExpr, *ast.TypeAssertExpr, *ast.IndexExpr:
							rhs = n.Rhs[0]
						}
					}
					// The value is assigned after the right-hand side is
					// evaluated: uses in it still see the earlier value.
					v.record(l, rhs, n.End())
					if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && i > 0 && len(n.Rhs) == 1 {
						v.recordResult(l, call, i)
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					var rhs ast.Expr
					if len(n.Values) == len(n.Names) {
						rhs = n.Values[i]
					}
					obj := info.Defs[id]
					if obj == nil {
						continue
					}
					if len(n.Values) == 0 {
						v.ZeroDecl[id] = true
						rhs = id
					}
					v.Assigns[obj] = append(v.Assigns[obj], Assign{Pos: n.End(), Value: rhs, Decl: true})
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if base := v.ObjOf(n.X); base != nil {
						v.Elements[base] = true // &opts: written through a pointer
					}
				}
			case *ast.CompositeLit:
				if st, ok := typeOf(info, n).Underlying().(*types.Struct); ok && len(n.Elts) > 0 && len(n.Elts) <= st.NumFields() {
					if _, keyed := n.Elts[0].(*ast.KeyValueExpr); !keyed {
						// T{a, b}: the fields in order.
						for i, e := range n.Elts {
							v.Assigns[st.Field(i)] = append(v.Assigns[st.Field(i)], Assign{Pos: e.Pos(), Value: e})
						}
						return true
					}
				}
				for _, e := range n.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if id, ok := kv.Key.(*ast.Ident); ok {
						if fld, ok := info.Uses[id].(*types.Var); ok && fld.IsField() {
							v.Assigns[fld] = append(v.Assigns[fld], Assign{Pos: kv.Pos(), Value: kv.Value})
						}
					}
				}
			}
			return true
		})
	}
	return v
}

// recordResult notes on the assignment record just made for the
// variable lhs that it holds result i of call.
func (v *Values) recordResult(lhs ast.Expr, call *ast.CallExpr, i int) {
	id, ok := analysisutil.Unparen(lhs).(*ast.Ident)
	if !ok {
		return
	}
	obj := v.Info.Defs[id]
	if obj == nil {
		obj = v.Info.Uses[id]
	}
	if as := v.Assigns[obj]; len(as) > 0 {
		as[len(as)-1].Tuple, as[len(as)-1].Result = call, i
	}
}

func (v *Values) record(lhs, rhs ast.Expr, pos token.Pos) {
	lhs = analysisutil.Unparen(lhs)
	switch l := lhs.(type) {
	case *ast.Ident:
		obj := v.Info.Defs[l]
		if obj == nil {
			obj = v.Info.Uses[l]
		}
		if obj != nil {
			v.Assigns[obj] = append(v.Assigns[obj], Assign{Pos: pos, Value: rhs})
		}
	case *ast.SelectorExpr:
		fld, ok := v.Info.Uses[l.Sel].(*types.Var)
		if !ok || !fld.IsField() {
			return
		}
		v.Assigns[fld] = append(v.Assigns[fld], Assign{Pos: pos, Value: rhs})
		if base := v.ObjOf(l.X); base != nil && rhs != nil {
			v.FieldSet[base] = append(v.FieldSet[base], FieldWrite{Field: l.Sel.Name, Value: rhs, Pos: l.Pos()})
		}
	}
}

// ObjOf returns the variable or field an expression names.
func (v *Values) ObjOf(e ast.Expr) types.Object {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		if obj := v.Info.Uses[x]; obj != nil {
			return obj
		}
		return v.Info.Defs[x]
	case *ast.SelectorExpr:
		if sel, ok := v.Info.Selections[x]; ok && sel.Kind() == types.FieldVal {
			return sel.Obj()
		}
		if obj, ok := v.Info.Uses[x.Sel].(*types.Var); ok {
			return obj // package-qualified variable
		}
	case *ast.StarExpr:
		return v.ObjOf(x.X)
	}
	return nil
}

// Origin is one place a traced value was made, with the variables and
// fields it passed through on the way.
type Origin struct {
	Expr ast.Expr
	Via  []types.Object
	// Call, when the value was followed into a helper of the package
	// that builds it, is the call of the innermost such helper: Expr is
	// in its body, and the helper's parameters are that call's
	// arguments.
	Call *ast.CallExpr
}

// Trace follows e back to where its value was made. An origin whose expr
// is an identifier or selector could not be followed further (or, for a
// `var x T` declaration, is the zero value).
//
// A local variable is followed to the last assignment before the use
// (straight-line code: `b := New(); b = WithMax(3, b)`), and from there
// to the assignments before that one; fields and package-level variables
// to every value the package gives them.
func (v *Values) Trace(e ast.Expr) []Origin {
	var out []Origin
	type visit struct {
		n      ast.Node
		cutoff token.Pos
	}
	seen := map[visit]bool{}
	var call *ast.CallExpr // the helper call being followed
	var walk func(e ast.Expr, via []types.Object, cutoff token.Pos, depth int)
	walk = func(e ast.Expr, via []types.Object, cutoff token.Pos, depth int) {
		e = analysisutil.Unparen(e)
		if e == nil || seen[visit{e, cutoff}] || depth > 12 {
			return
		}
		seen[visit{e, cutoff}] = true
		switch x := e.(type) {
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				walk(x.X, via, cutoff, depth+1)
				return
			}
		case *ast.StarExpr:
			walk(x.X, via, cutoff, depth+1)
			return
		case *ast.CallExpr:
			// A helper of this package that builds the value: follow its
			// returns.
			if fn := analysisutil.Callee(v.Info, x); fn != nil {
				if d := v.helper(fn); d != nil {
					found := false
					outer := call
					call = x
					ast.Inspect(d.Body, func(n ast.Node) bool {
						switch n := n.(type) {
						case *ast.FuncLit:
							return false
						case *ast.ReturnStmt:
							if len(n.Results) > 0 {
								found = true
								walk(n.Results[0], via, n.Results[0].Pos(), depth+1)
							}
						}
						return true
					})
					call = outer
					if found {
						return
					}
				}
			}
		case *ast.Ident, *ast.SelectorExpr:
			if id, ok := x.(*ast.Ident); ok && v.ZeroDecl[id] {
				break
			}
			obj := v.ObjOf(x)
			if obj != nil {
				vals := v.Assigns[obj]
				if IsLocal(obj) && cutoff.IsValid() {
					// The last assignment before the use.
					var last *Assign
					for i := range vals {
						if vals[i].Pos < cutoff && (last == nil || vals[i].Pos > last.Pos) {
							last = &vals[i]
						}
					}
					vals = nil
					if last != nil {
						vals = []Assign{*last}
					}
				}
				if len(vals) > 0 {
					nvia := append(append([]types.Object(nil), via...), obj)
					for _, a := range vals {
						if a.Value == nil {
							out = append(out, Origin{Expr: x, Via: nvia, Call: call})
							continue
						}
						walk(a.Value, nvia, a.Pos, depth+1)
					}
					return
				}
				via = append(append([]types.Object(nil), via...), obj)
			}
		}
		out = append(out, Origin{Expr: e, Via: via, Call: call})
	}
	if e == nil {
		return nil
	}
	walk(e, nil, e.Pos(), 0)
	return out
}

// IsLocal reports whether obj is a variable local to a function (a
// parameter included), not a field or a package-level variable.
func IsLocal(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && !v.IsField() && v.Pkg() != nil && v.Parent() != nil && v.Parent() != v.Pkg().Scope()
}

// helper returns the declaration of fn when trace follows its returns: a
// function of the package with a body that no catalog row describes.
func (v *Values) helper(fn *types.Func) *ast.FuncDecl {
	d := v.Decls[fn]
	if d == nil || catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()) != nil {
		return nil
	}
	return d
}

// LastWrite returns the last `v.field = x` write among the variables a
// value passed through, or nil.
func (v *Values) LastWrite(via []types.Object, field string) *FieldWrite {
	return v.LastWriteBefore(via, field, token.NoPos)
}

// LastWriteBefore is LastWrite among the writes before pos (all of them
// when pos is NoPos).
func (v *Values) LastWriteBefore(via []types.Object, field string, pos token.Pos) *FieldWrite {
	var best *FieldWrite
	for _, obj := range via {
		ws := v.FieldSet[obj]
		for i := range ws {
			if ws[i].Field == field && (pos == token.NoPos || ws[i].Pos < pos) && (best == nil || ws[i].Pos > best.Pos) {
				best = &ws[i]
			}
		}
	}
	return best
}

// BaseObj returns the variable at the root of a selector chain: req,
// req.Request (an embedded field: req), c.req. A field of a variable is
// its own root, except an embedded one.
func BaseObj(info *types.Info, e ast.Expr) types.Object {
	for {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			return info.ObjectOf(x)
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
				// An embedded field is part of the value that embeds it
				// (retryablehttp's Request embeds the *http.Request):
				// follow it to the holder; another field holds a value
				// of its own.
				embedded := false
				if v, ok := sel.Obj().(*types.Var); ok {
					embedded = v.Embedded()
				}
				if _, isIdent := analysisutil.Unparen(x.X).(*ast.Ident); isIdent && !embedded {
					return sel.Obj() // a field holding the request
				}
				e = x.X
				continue
			}
			return info.Uses[x.Sel]
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// LitField returns the value of field name in a keyed composite literal.
func LitField(lit *ast.CompositeLit, name string) (ast.Expr, bool) {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value, true
			}
		}
	}
	return nil, false
}

// Funcs returns the package's functions with a body, in source order.
func (v *Values) Funcs() []*types.Func {
	fns := make([]*types.Func, 0, len(v.Decls))
	for fn := range v.Decls {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	return fns
}

// Marked computes, in rounds, the package's declared functions (with a
// body) for which holds is true, given those marked so far: a property
// that passes from a function to its callers (it calls one that has it).
// Each round is linear in the package; rounds stop when one marks
// nothing new, or after max.
func (v *Values) Marked(max int, holds func(fn *types.Func, d *ast.FuncDecl, marked map[*types.Func]bool) bool) map[*types.Func]bool {
	marked := map[*types.Func]bool{}
	for range max {
		changed := false
		for fn, d := range v.Decls {
			if !marked[fn] && d.Body != nil && holds(fn, d, marked) {
				marked[fn] = true
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return marked
}

// Spread returns the arguments of call from index from on, as the
// variadic parameter receives them: with `xs...`, the elements of the
// slice literal that is the only value xs may hold (a local variable, a
// package variable, a helper's return). ok is false when that slice is
// not known.
func (v *Values) Spread(call *ast.CallExpr, from int) (args []ast.Expr, ok bool) {
	if from < 0 || from > len(call.Args) {
		return nil, false
	}
	if !call.Ellipsis.IsValid() {
		return call.Args[from:], true
	}
	if from != len(call.Args)-1 {
		return nil, false
	}
	origins := v.Trace(call.Args[from])
	if len(origins) != 1 {
		return nil, false
	}
	if obj := v.ObjOf(call.Args[from]); obj != nil && v.Elements[obj] {
		return nil, false // opts[0] = retry.Attempts(5): the literal changed
	}
	for _, obj := range origins[0].Via {
		if v.Elements[obj] {
			return nil, false
		}
	}
	lit, isLit := analysisutil.Unparen(origins[0].Expr).(*ast.CompositeLit)
	if !isLit {
		return nil, false
	}
	for _, e := range lit.Elts {
		if _, keyed := e.(*ast.KeyValueExpr); keyed {
			return nil, false // [...]Option{2: x}: an index, not a list
		}
	}
	return lit.Elts, true
}

// typeOf is the type of e, or the invalid type when it has none.
func typeOf(info *types.Info, e ast.Expr) types.Type {
	if t := info.TypeOf(e); t != nil {
		return t
	}
	return types.Typ[types.Invalid]
}

// Every reports whether pred holds for e, or, when e names a local
// variable (no slice's or map's element), for every value given to it.
func (v *Values) Every(info *types.Info, e ast.Expr, pred func(ast.Expr) bool) bool {
	if pred(e) {
		return true
	}
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	obj, ok := info.Uses[id].(*types.Var)
	if !ok || !IsLocal(obj) || v.Elements[obj] || len(v.Assigns[obj]) == 0 {
		return false
	}
	for _, a := range v.Assigns[obj] {
		if a.Value == nil || !pred(a.Value) {
			return false
		}
	}
	return true
}
