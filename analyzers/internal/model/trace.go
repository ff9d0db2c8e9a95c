package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// values indexes, for the whole package, every value assigned to each
// variable and struct field, and every `x.Field = v` write, so that a
// client, backoff or policy can be traced from where it is used to where
// it was made, through locals, struct fields and helper functions.
type values struct {
	info     *types.Info
	assigns  map[types.Object][]assign // values given to a variable or field
	zeroDecl map[*ast.Ident]bool       // `var x T` without a value: x is the zero value
	fieldSet map[types.Object][]fieldWrite
	decls    map[*types.Func]*ast.FuncDecl
}

// assign is one value given to a variable or field; value is nil when it
// cannot be followed (one result of a multi-value call).
type assign struct {
	pos   token.Pos
	value ast.Expr
}

type fieldWrite struct {
	field string
	value ast.Expr
	pos   token.Pos
}

func newValues(info *types.Info, files []*ast.File) *values {
	v := &values{
		info:     info,
		assigns:  map[types.Object][]assign{},
		zeroDecl: map[*ast.Ident]bool{},
		fieldSet: map[types.Object][]fieldWrite{},
		decls:    map[*types.Func]*ast.FuncDecl{},
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if fn, ok := info.Defs[n.Name].(*types.Func); ok && n.Body != nil {
					v.decls[fn] = n
				}
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
					return true
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
						v.zeroDecl[id] = true
						rhs = id
					}
					v.assigns[obj] = append(v.assigns[obj], assign{n.End(), rhs})
				}
			case *ast.CompositeLit:
				for _, e := range n.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if id, ok := kv.Key.(*ast.Ident); ok {
						if fld, ok := info.Uses[id].(*types.Var); ok && fld.IsField() {
							v.assigns[fld] = append(v.assigns[fld], assign{kv.Pos(), kv.Value})
						}
					}
				}
			}
			return true
		})
	}
	return v
}

func (v *values) record(lhs, rhs ast.Expr, pos token.Pos) {
	lhs = analysisutil.Unparen(lhs)
	switch l := lhs.(type) {
	case *ast.Ident:
		obj := v.info.Defs[l]
		if obj == nil {
			obj = v.info.Uses[l]
		}
		if obj != nil {
			v.assigns[obj] = append(v.assigns[obj], assign{pos, rhs})
		}
	case *ast.SelectorExpr:
		fld, ok := v.info.Uses[l.Sel].(*types.Var)
		if !ok || !fld.IsField() {
			return
		}
		v.assigns[fld] = append(v.assigns[fld], assign{pos, rhs})
		if base := v.objOf(l.X); base != nil && rhs != nil {
			v.fieldSet[base] = append(v.fieldSet[base], fieldWrite{field: l.Sel.Name, value: rhs, pos: l.Pos()})
		}
	}
}

// objOf returns the variable or field an expression names.
func (v *values) objOf(e ast.Expr) types.Object {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		if obj := v.info.Uses[x]; obj != nil {
			return obj
		}
		return v.info.Defs[x]
	case *ast.SelectorExpr:
		if sel, ok := v.info.Selections[x]; ok && sel.Kind() == types.FieldVal {
			return sel.Obj()
		}
		if obj, ok := v.info.Uses[x.Sel].(*types.Var); ok {
			return obj // package-qualified variable
		}
	case *ast.StarExpr:
		return v.objOf(x.X)
	}
	return nil
}

// origin is one place a traced value was made, with the variables and
// fields it passed through on the way.
type origin struct {
	expr ast.Expr
	via  []types.Object
}

// trace follows e back to where its value was made. An origin whose expr
// is an identifier or selector could not be followed further (or, for a
// `var x T` declaration, is the zero value).
//
// A local variable is followed to the last assignment before the use
// (straight-line code: `b := New(); b = WithMax(3, b)`), and from there
// to the assignments before that one; fields and package-level variables
// to every value the package gives them.
func (v *values) trace(e ast.Expr) []origin {
	var out []origin
	type visit struct {
		n      ast.Node
		cutoff token.Pos
	}
	seen := map[visit]bool{}
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
			if fn := analysisutil.Callee(v.info, x); fn != nil {
				if d := v.decls[fn]; d != nil && catalogRow(fn) == nil {
					found := false
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
					if found {
						return
					}
				}
			}
		case *ast.Ident, *ast.SelectorExpr:
			if id, ok := x.(*ast.Ident); ok && v.zeroDecl[id] {
				break
			}
			obj := v.objOf(x)
			if obj != nil {
				vals := v.assigns[obj]
				if isLocal(obj) && cutoff.IsValid() {
					// The last assignment before the use.
					var last *assign
					for i := range vals {
						if vals[i].pos < cutoff && (last == nil || vals[i].pos > last.pos) {
							last = &vals[i]
						}
					}
					vals = nil
					if last != nil {
						vals = []assign{*last}
					}
				}
				if len(vals) > 0 {
					nvia := append(append([]types.Object(nil), via...), obj)
					for _, a := range vals {
						if a.value == nil {
							out = append(out, origin{expr: x, via: nvia})
							continue
						}
						walk(a.value, nvia, a.pos, depth+1)
					}
					return
				}
				via = append(append([]types.Object(nil), via...), obj)
			}
		}
		out = append(out, origin{expr: e, via: via})
	}
	walk(e, nil, e.Pos(), 0)
	return out
}

func isLocal(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && !v.IsField() && v.Pkg() != nil && v.Parent() != nil && v.Parent() != v.Pkg().Scope()
}

func catalogRow(fn *types.Func) *catalog.Row {
	return catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
}
