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
	assigns  map[types.Object][]ast.Expr // values given to a variable or field; nil entries: unknown
	fieldSet map[types.Object][]fieldWrite
	decls    map[*types.Func]*ast.FuncDecl
}

type fieldWrite struct {
	field string
	value ast.Expr
	pos   token.Pos
}

func newValues(info *types.Info, files []*ast.File) *values {
	v := &values{
		info:     info,
		assigns:  map[types.Object][]ast.Expr{},
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
					if len(n.Lhs) == len(n.Rhs) {
						rhs = n.Rhs[i]
					}
					v.record(l, rhs)
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					var rhs ast.Expr
					if len(n.Values) == len(n.Names) {
						rhs = n.Values[i]
					}
					if obj := info.Defs[id]; obj != nil && (rhs != nil || len(n.Values) != 0) {
						v.assigns[obj] = append(v.assigns[obj], rhs)
					}
				}
			case *ast.CompositeLit:
				for _, e := range n.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if id, ok := kv.Key.(*ast.Ident); ok {
						if fld, ok := info.Uses[id].(*types.Var); ok && fld.IsField() {
							v.assigns[fld] = append(v.assigns[fld], kv.Value)
						}
					}
				}
			}
			return true
		})
	}
	return v
}

func (v *values) record(lhs, rhs ast.Expr) {
	lhs = analysisutil.Unparen(lhs)
	switch l := lhs.(type) {
	case *ast.Ident:
		obj := v.info.Defs[l]
		if obj == nil {
			obj = v.info.Uses[l]
		}
		if obj != nil {
			v.assigns[obj] = append(v.assigns[obj], rhs)
		}
	case *ast.SelectorExpr:
		fld, ok := v.info.Uses[l.Sel].(*types.Var)
		if !ok || !fld.IsField() {
			return
		}
		v.assigns[fld] = append(v.assigns[fld], rhs)
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
// is an identifier or selector could not be followed further.
func (v *values) trace(e ast.Expr) []origin {
	var out []origin
	seen := map[ast.Node]bool{}
	var walk func(e ast.Expr, via []types.Object, depth int)
	walk = func(e ast.Expr, via []types.Object, depth int) {
		e = analysisutil.Unparen(e)
		if e == nil || seen[e] || depth > 12 {
			return
		}
		seen[e] = true
		switch x := e.(type) {
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				walk(x.X, via, depth+1)
				return
			}
		case *ast.StarExpr:
			walk(x.X, via, depth+1)
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
								walk(n.Results[0], via, depth+1)
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
			obj := v.objOf(x)
			if obj != nil {
				if vals, ok := v.assigns[obj]; ok && len(vals) > 0 {
					nvia := append(append([]types.Object(nil), via...), obj)
					for _, val := range vals {
						if val == nil {
							out = append(out, origin{expr: x, via: nvia})
							continue
						}
						walk(val, nvia, depth+1)
					}
					return
				}
				via = append(append([]types.Object(nil), via...), obj)
			}
		}
		out = append(out, origin{expr: e, via: via})
	}
	walk(e, nil, 0)
	return out
}

func catalogRow(fn *types.Func) *catalog.Row {
	return catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
}
