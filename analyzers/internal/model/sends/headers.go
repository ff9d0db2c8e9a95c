package sends

import (
	"go/ast"
	"go/token"
	"go/types"
	"net/http"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// headerIndex finds, package-wide, the headers set on request variables:
// req.Header.Set/Add(name, v), req.Header[name] = v, req.Header =
// http.Header{name: ...}.
func (m *layer) headerIndex() map[types.Object][]HeaderWrite {
	info := m.pass.TypesInfo
	idx := map[types.Object][]HeaderWrite{}
	type headerAssign struct {
		base ast.Expr
		from types.Object
	}
	var assigned []headerAssign
	add := func(base ast.Expr, name string, v ast.Expr, pos token.Pos) {
		if obj := provenance.BaseObj(info, base); obj != nil {
			idx[obj] = append(idx[obj], HeaderWrite{Name: http.CanonicalHeaderKey(name), Value: v, Pos: pos})
		}
	}
	headerOf := func(e ast.Expr) (ast.Expr, bool) {
		sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Header" || !analysisutil.IsNamedType(info.TypeOf(sel), "net/http", "Header") {
			return nil, false
		}
		return sel.X, true
	}
	for _, f := range m.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				sel, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "Set" && sel.Sel.Name != "Add") || len(x.Args) != 2 {
					break
				}
				if base, ok := headerOf(sel.X); ok {
					if name, ok := m.constString(x.Args[0]); ok {
						add(base, name, x.Args[1], x.Pos())
					}
				} else if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok && analysisutil.IsNamedType(info.TypeOf(id), "net/http", "Header") {
					// h := http.Header{}; h.Set(name, v); req.Header = h
					if name, ok := m.constString(x.Args[0]); ok {
						if obj := info.Uses[id]; obj != nil {
							idx[obj] = append(idx[obj], HeaderWrite{Name: http.CanonicalHeaderKey(name), Value: x.Args[1], Pos: x.Pos()})
						}
					}
				}
			case *ast.AssignStmt:
				for i, l := range x.Lhs {
					if i >= len(x.Rhs) {
						break
					}
					switch lx := analysisutil.Unparen(l).(type) {
					case *ast.IndexExpr:
						if base, ok := headerOf(lx.X); ok {
							if name, ok := m.constString(lx.Index); ok {
								add(base, name, x.Rhs[i], x.Pos())
							}
						}
					case *ast.SelectorExpr:
						if base, ok := headerOf(lx); ok {
							if id, ok := analysisutil.Unparen(x.Rhs[i]).(*ast.Ident); ok {
								assigned = append(assigned, headerAssign{base: base, from: info.Uses[id]})
							}
							if lit, ok := analysisutil.Unparen(x.Rhs[i]).(*ast.CompositeLit); ok {
								for _, e := range lit.Elts {
									if kv, ok := e.(*ast.KeyValueExpr); ok {
										if name, ok := m.constString(kv.Key); ok {
											add(base, name, kv.Value, kv.Pos())
										}
									}
								}
							}
						}
					}
				}
			}
			return true
		})
	}
	// req.Header = h: the headers set on h are set on the request.
	for _, a := range assigned {
		if obj := provenance.BaseObj(info, a.base); obj != nil && a.from != nil {
			idx[obj] = append(idx[obj], idx[a.from]...)
		}
	}
	// Helpers of this package that set a header on a parameter: a call
	// passing a request sets it on the argument.
	for fn := range m.vals.Decls {
		sig := fn.Type().(*types.Signature)
		for i := range sig.Params().Len() {
			p := sig.Params().At(i)
			writes := idx[p]
			if len(writes) == 0 {
				continue
			}
			for _, f := range m.pass.Files {
				ast.Inspect(f, func(n ast.Node) bool {
					c, ok := n.(*ast.CallExpr)
					if !ok || analysisutil.Callee(info, c) != fn || i >= len(c.Args) {
						return true
					}
					for _, w := range writes {
						v := w.Value
						// A value given as another parameter comes from the caller.
						if id, ok := analysisutil.Unparen(v).(*ast.Ident); ok {
							for j := range sig.Params().Len() {
								if info.Uses[id] == sig.Params().At(j) && j < len(c.Args) {
									v = c.Args[j]
								}
							}
						}
						add(c.Args[i], w.Name, v, c.Pos())
					}
					return true
				})
			}
		}
	}
	return idx
}
