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
// http.Header{name: ...}; and on header sets kept in variables (an
// http.Header, a map of names to values: h.Set(name, v), hs[name] = v). A
// name that is not a constant makes an open write (Name empty): a range
// key over a header set (`for k, v := range headers { req.Header.Set(k, v)
// }`) gives the set (From), another name is kept as NameExpr; `req.Header
// = h` with h a parameter gives h (From). Open writes are resolved where
// their values are known (expand, headerSet) or carried to the callers in
// the SendFact.
func (m *layer) headerIndex() map[types.Object][]HeaderWrite {
	info := m.pass.TypesInfo
	idx := map[types.Object][]HeaderWrite{}
	type headerAssign struct {
		base ast.Expr
		from types.Object
	}
	var assigned []headerAssign
	// The key variables of ranges over a header set.
	rangeOf := map[types.Object]ast.Expr{}
	params := map[types.Object]bool{}
	for fn := range m.vals.Decls {
		sig := fn.Type().(*types.Signature)
		for i := range sig.Params().Len() {
			params[sig.Params().At(i)] = true
		}
	}
	for _, f := range m.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if rs, ok := n.(*ast.RangeStmt); ok && isHeaderSet(info.TypeOf(rs.X)) {
				if id, ok := rs.Key.(*ast.Ident); ok {
					if obj := info.ObjectOf(id); obj != nil {
						rangeOf[obj] = rs.X
					}
				}
			}
			return true
		})
	}
	write := func(nameE, v ast.Expr, pos token.Pos) HeaderWrite {
		if name, ok := m.constString(nameE); ok {
			return HeaderWrite{Name: http.CanonicalHeaderKey(name), Value: v, Pos: pos}
		}
		if id, ok := analysisutil.Unparen(nameE).(*ast.Ident); ok {
			if x := rangeOf[info.Uses[id]]; x != nil {
				return HeaderWrite{From: x, Pos: pos}
			}
		}
		return HeaderWrite{NameExpr: nameE, Value: v, Pos: pos}
	}
	add := func(base ast.Expr, w HeaderWrite) {
		if obj := provenance.BaseObj(info, base); obj != nil {
			idx[obj] = append(idx[obj], w)
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
				if dynamicCall(info, x) {
					// o(req), mw.Decorate(req): a function value or an
					// interface method that takes a request (or a
					// header set) may set any header on the one it is
					// given. Not a parameter of another type (a
					// logger's ...any).
					for i, a := range x.Args {
						t := paramType(info, x, i)
						switch {
						case t != nil && analysisutil.IsNamedType(analysisutil.Deref(t), "net/http", "Request"):
							add(a, HeaderWrite{From: x, Pos: x.Pos(), Dynamic: true})
						case t != nil && analysisutil.IsNamedType(t, "net/http", "Header"):
							if base, ok := headerOf(a); ok {
								add(base, HeaderWrite{From: x, Pos: x.Pos(), Dynamic: true})
							} else {
								add(a, HeaderWrite{From: x, Pos: x.Pos(), Dynamic: true})
							}
						}
					}
				}
				sel, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "Set" && sel.Sel.Name != "Add") || len(x.Args) != 2 {
					break
				}
				if base, ok := headerOf(sel.X); ok {
					add(base, write(x.Args[0], x.Args[1], x.Pos()))
				} else if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok && analysisutil.IsNamedType(info.TypeOf(id), "net/http", "Header") {
					// h := http.Header{}; h.Set(name, v); req.Header = h
					if obj := info.Uses[id]; obj != nil {
						idx[obj] = append(idx[obj], write(x.Args[0], x.Args[1], x.Pos()))
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
							add(base, write(lx.Index, x.Rhs[i], x.Pos()))
						} else if id, ok := analysisutil.Unparen(lx.X).(*ast.Ident); ok && isHeaderSet(info.TypeOf(id)) {
							// hs := map[string]string{}; hs[name] = v
							if obj := info.Uses[id]; obj != nil {
								idx[obj] = append(idx[obj], write(lx.Index, x.Rhs[i], x.Pos()))
							}
						}
					case *ast.SelectorExpr:
						if base, ok := headerOf(lx); ok {
							if id, ok := analysisutil.Unparen(x.Rhs[i]).(*ast.Ident); ok {
								assigned = append(assigned, headerAssign{base: base, from: info.Uses[id]})
								if params[info.Uses[id]] {
									// req.Header = h, the caller's headers.
									add(base, HeaderWrite{From: id, Pos: x.Pos()})
								}
							}
							switch rx := analysisutil.Unparen(x.Rhs[i]).(type) {
							case *ast.CompositeLit:
								for _, e := range rx.Elts {
									if kv, ok := e.(*ast.KeyValueExpr); ok {
										add(base, write(kv.Key, kv.Value, kv.Pos()))
									}
								}
							case *ast.Ident:
							default:
								// req.Header = headers(key): the set a call
								// (or a field) holds, followed where it can
								// be, open where it cannot (headerSet).
								add(base, HeaderWrite{From: x.Rhs[i], Pos: x.Pos()})
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
					// A value, a name or a header set given as another
					// parameter comes from the caller.
					arg := func(e ast.Expr) ast.Expr {
						if e == nil {
							return nil
						}
						if id, ok := analysisutil.Unparen(e).(*ast.Ident); ok {
							for j := range sig.Params().Len() {
								if info.Uses[id] == sig.Params().At(j) && j < len(c.Args) {
									return c.Args[j]
								}
							}
						}
						return e
					}
					for _, w := range writes {
						switch {
						case w.Name != "":
							add(c.Args[i], HeaderWrite{Name: w.Name, Value: arg(w.Value), Pos: c.Pos()})
						case w.From != nil:
							add(c.Args[i], HeaderWrite{From: arg(w.From), Pos: c.Pos(), Dynamic: w.Dynamic})
						case w.NameExpr != nil:
							add(c.Args[i], write(arg(w.NameExpr), arg(w.Value), c.Pos()))
						default:
							w.Pos = c.Pos()
							add(c.Args[i], w)
						}
					}
					return true
				})
			}
		}
	}
	return idx
}

// isHeaderSet reports whether t holds headers by name: an http.Header, a
// map from strings to strings or to lists of strings.
func isHeaderSet(t types.Type) bool {
	if t == nil {
		return false
	}
	if analysisutil.IsNamedType(t, "net/http", "Header") {
		return true
	}
	mt, ok := t.Underlying().(*types.Map)
	if !ok || !isString(mt.Key()) {
		return false
	}
	if isString(mt.Elem()) {
		return true
	}
	sl, ok := mt.Elem().Underlying().(*types.Slice)
	return ok && isString(sl.Elem())
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// expand resolves the open writes among hs whose header set is known here
// (a local http.Header or map, a literal): the headers set in it replace
// the write. What stays open comes from a parameter or from a value the
// model cannot read.
func (m *layer) expand(hs []HeaderWrite, depth int) []HeaderWrite {
	var out []HeaderWrite
	for _, h := range hs {
		if h.Name != "" || h.From == nil {
			out = append(out, h)
			continue
		}
		out = append(out, m.headerSet(h.From, h.Pos, depth+1)...)
	}
	return out
}

// headerSet returns the headers a header set (an http.Header or a map of
// names to values) holds, followed back to where it was made: the entries
// of its literal and the writes into the variables it passed through; an
// origin the model cannot read (a parameter, a field, a call's result)
// stays an open write From it.
func (m *layer) headerSet(e ast.Expr, pos token.Pos, depth int) []HeaderWrite {
	if depth > 4 {
		return []HeaderWrite{{From: e, Pos: pos}}
	}
	info := m.pass.TypesInfo
	var out []HeaderWrite
	for _, o := range m.vals.Trace(e) {
		switch x := analysisutil.Unparen(o.Expr).(type) {
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if name, ok := m.constString(kv.Key); ok {
					out = append(out, HeaderWrite{Name: http.CanonicalHeaderKey(name), Value: kv.Value, Pos: kv.Pos()})
				} else {
					out = append(out, HeaderWrite{NameExpr: kv.Key, Value: kv.Value, Pos: kv.Pos()})
				}
			}
		case *ast.CallExpr:
			if id, ok := analysisutil.Unparen(x.Fun).(*ast.Ident); ok {
				if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "make" {
					break // an empty set
				}
			}
			out = append(out, HeaderWrite{From: x, Pos: pos})
		default:
			out = append(out, HeaderWrite{From: o.Expr, Pos: pos})
		}
		for _, obj := range o.Via {
			out = append(out, m.expand(m.headers[obj], depth+1)...)
		}
	}
	return out
}

// dynamicCall reports whether call goes through a function value or an
// interface method: what it does is not known here.
func dynamicCall(info *types.Info, call *ast.CallExpr) bool {
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return false // a conversion
	}
	if id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident); ok {
		if _, ok := info.Uses[id].(*types.Builtin); ok {
			return false
		}
	}
	fn := analysisutil.Callee(info, call)
	return fn == nil || analysisutil.IsInterfaceMethod(fn)
}

// paramType returns the type of the parameter call's argument i is given
// to (the element type for a variadic one), or nil.
func paramType(info *types.Info, call *ast.CallExpr, i int) types.Type {
	sig, ok := info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok {
		return nil
	}
	n := sig.Params().Len()
	switch {
	case sig.Variadic() && i >= n-1 && !call.Ellipsis.IsValid():
		if sl, ok := sig.Params().At(n - 1).Type().(*types.Slice); ok {
			return sl.Elem()
		}
		return nil
	case i < n:
		return sig.Params().At(i).Type()
	}
	return nil
}
