package timeouts

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// callIndex lists, for each function of the package, the calls that name
// it and whether it is named anywhere else (a method value, a function
// value handed on): built in one walk of the package, on first need.
type callIndex struct {
	calls  map[*types.Func][]*ast.CallExpr
	values map[*types.Func]bool // named other than as the function of a call
	// ifaceMethods are the method names of the package's interface types:
	// a method of that name may be called through one of them.
	ifaceMethods map[string]bool
}

func (m *layer) callers() *callIndex {
	if m.calls != nil {
		return m.calls
	}
	info := m.pass.TypesInfo
	ix := &callIndex{calls: map[*types.Func][]*ast.CallExpr{}, values: map[*types.Func]bool{}, ifaceMethods: map[string]bool{}}
	callee := map[*ast.Ident]bool{}
	for _, f := range m.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				var id *ast.Ident
				switch fun := analysisutil.Unparen(x.Fun).(type) {
				case *ast.Ident:
					id = fun
				case *ast.SelectorExpr:
					id = fun.Sel
				}
				if id != nil {
					if fn, ok := info.Uses[id].(*types.Func); ok {
						fn = fn.Origin()
						ix.calls[fn] = append(ix.calls[fn], x)
						callee[id] = true
					}
				}
			case *ast.InterfaceType:
				if t, ok := info.TypeOf(x).(*types.Interface); ok {
					for i := range t.NumMethods() {
						ix.ifaceMethods[t.Method(i).Name()] = true
					}
				}
			}
			return true
		})
	}
	for id, obj := range info.Uses {
		if fn, ok := obj.(*types.Func); ok && !callee[id] {
			ix.values[fn.Origin()] = true
		}
	}
	m.calls = ix
	return ix
}

// neverCancelled reports whether the context parameter named scope of the
// function declared around pos can never be cancelled: the function is
// not exported, so that every caller is in this package; it is only
// called, never taken as a value nor callable through an interface of the
// package; and every call gives it context.Background(), context.TODO()
// or context.WithoutCancel(...), directly or through variables and
// WithValue. A wait there that ignores the context ignores nothing.
func (m *layer) neverCancelled(pos token.Pos, scope string) bool {
	info := m.pass.TypesInfo
	fd := m.enclosingDecl(pos)
	if fd == nil || fd.Type.Params == nil {
		return false
	}
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok || fn.Exported() {
		return false
	}
	idx := -1
	i := 0
	for _, f := range fd.Type.Params.List {
		if len(f.Names) == 0 {
			i++
			continue
		}
		for _, n := range f.Names {
			if n.Name == scope {
				idx = i
			}
			i++
		}
	}
	if idx < 0 {
		return false
	}
	ix := m.callers()
	if ix.values[fn] || fd.Recv != nil && ix.ifaceMethods[fn.Name()] {
		return false
	}
	calls := ix.calls[fn]
	if len(calls) == 0 {
		return false
	}
	for _, c := range calls {
		if c.Ellipsis.IsValid() || idx >= len(c.Args) || !m.uncancellable(c.Args[idx], 0) {
			return false
		}
	}
	return true
}

// uncancellable reports whether every value e can have is a context that
// is never cancelled.
func (m *layer) uncancellable(e ast.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	origins := m.vals.Trace(e)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		call, ok := analysisutil.Unparen(o.Expr).(*ast.CallExpr)
		if !ok {
			return false
		}
		switch {
		case m.isContextFunc(call, "Background", "TODO", "WithoutCancel"):
		case m.isContextFunc(call, "WithValue") && len(call.Args) == 3:
			if !m.uncancellable(call.Args[0], depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// enclosingDecl returns the function declaration whose body holds pos
// when no function literal inside it does.
func (m *layer) enclosingDecl(pos token.Pos) *ast.FuncDecl {
	for _, f := range m.pass.Files {
		if !(f.FileStart <= pos && pos < f.FileEnd) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !(fd.Body.Pos() <= pos && pos < fd.Body.End()) {
				continue
			}
			inLit := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if n == nil || inLit || !(n.Pos() <= pos && pos < n.End()) {
					return false
				}
				if _, ok := n.(*ast.FuncLit); ok {
					inLit = true
				}
				return !inLit
			})
			if inLit {
				return nil
			}
			return fd
		}
	}
	return nil
}
