package timeouts

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

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
	// params places each parameter of a declared function.
	params map[*types.Var]paramPos
	// hijackedGo are the calls of go statements in functions that take
	// over an HTTP connection (http.Hijacker's Hijack, a WebSocket
	// upgrader: HijackFact).
	hijackedGo map[*ast.CallExpr]bool
}

type paramPos struct {
	fn     *types.Func
	idx    int
	method bool
}

func (m *layer) callers() *callIndex {
	if m.calls != nil {
		return m.calls
	}
	info := m.pass.TypesInfo
	ix := &callIndex{calls: map[*types.Func][]*ast.CallExpr{}, values: map[*types.Func]bool{}, ifaceMethods: map[string]bool{}, params: map[*types.Var]paramPos{}, hijackedGo: map[*ast.CallExpr]bool{}}
	callee := map[*ast.Ident]bool{}
	var goCalls []*ast.CallExpr // of the function declaration being walked
	hijacks := false
	endDecl := func() {
		if hijacks {
			for _, c := range goCalls {
				ix.hijackedGo[c] = true
			}
		}
		goCalls, hijacks = nil, false
	}
	for _, f := range m.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GoStmt:
				goCalls = append(goCalls, x.Call)
			case *ast.FuncDecl:
				endDecl()
				fn, ok := info.Defs[x.Name].(*types.Func)
				if !ok || x.Type.Params == nil {
					break
				}
				i := 0
				for _, f := range x.Type.Params.List {
					if len(f.Names) == 0 {
						i++
					}
					for _, n := range f.Names {
						if v, ok := info.Defs[n].(*types.Var); ok {
							ix.params[v] = paramPos{fn: fn, idx: i, method: x.Recv != nil}
						}
						i++
					}
				}
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
						hijacks = hijacks || m.hijacks(fn)
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
		endDecl()
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
// function declared around pos can never be cancelled (paramNeverCancelled),
// or, for a scope `r.Context()`, the context of the request parameter r.
// A wait there that ignores the context ignores nothing.
func (m *layer) neverCancelled(pos token.Pos, scope string) bool {
	fd := m.enclosingDecl(pos)
	if fd == nil {
		return false
	}
	v := m.paramNamed(fd, strings.TrimSuffix(scope, ".Context()"))
	return v != nil && m.paramNeverCancelled(v, 0)
}

// paramNamed returns the parameter of fd named name, or nil.
func (m *layer) paramNamed(fd *ast.FuncDecl, name string) *types.Var {
	if fd.Type.Params == nil {
		return nil
	}
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			if n.Name == name {
				v, _ := m.pass.TypesInfo.Defs[n].(*types.Var)
				return v
			}
		}
	}
	return nil
}

// callsKnown reports whether the calls the index lists for the function
// of p are all of its calls: the function is not exported (or is a
// function of package main, which no package imports), is only called,
// never taken as a value, and is no method an interface of the package
// could name. (A method of package main may still be called through
// another package's interface.)
func (m *layer) callsKnown(ix *callIndex, p paramPos) bool {
	return !(p.fn.Exported() && (m.pass.Pkg.Name() != "main" || p.method) || ix.values[p.fn] || p.method && ix.ifaceMethods[p.fn.Name()])
}

// paramNeverCancelled reports whether the parameter v can never hold a
// context that is cancelled: its function is not exported (or is a
// function of package main, which no package imports), so that every
// caller is in this package; it is only called, never taken as a value
// nor callable through an interface of the package; and every call gives
// it context.Background(), context.TODO() or context.WithoutCancel(...),
// directly or through variables, WithValue or another derivation by
// values only (valueArg, judged at the call), or a parameter of the caller
// that is itself never cancelled (a recursive call that passes the
// parameter on gives nothing new; some other call must give it).
func (m *layer) paramNeverCancelled(v *types.Var, depth int) bool {
	ix := m.callers()
	p, ok := ix.params[v]
	if !ok || !m.callsKnown(ix, p) {
		return false
	}
	calls := ix.calls[p.fn]
	if len(calls) == 0 {
		return false
	}
	outside := false
	for _, c := range calls {
		if c.Ellipsis.IsValid() || p.idx >= len(c.Args) {
			return false
		}
		if id, ok := analysisutil.Unparen(c.Args[p.idx]).(*ast.Ident); ok && m.pass.TypesInfo.Uses[id] == v {
			continue // a recursive call passes on what it was given
		}
		if ix.hijackedGo[c] && requestContext(m.pass.TypesInfo, c.Args[p.idx]) {
			// go serve(r.Context(), conn) after Hijack: the request's
			// context ends when the handler returns, which it does
			// while the goroutine serves the connection taken over.
			// Nothing the function could honour is dropped.
			outside = true
			continue
		}
		if !m.uncancellable(c.Args[p.idx], depth+1) {
			return false
		}
		outside = true
	}
	return outside
}

// requestContext reports whether e is r.Context() of an *http.Request.
func requestContext(info *types.Info, e ast.Expr) bool {
	c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	return ok && analysisutil.IsMethod(analysisutil.Callee(info, c), "net/http", "Request", "Context")
}

// uncancellable reports whether every value e can have is a context that
// is never cancelled, or a request that carries one: made by
// http.NewRequest, which gives it context.Background().
func (m *layer) uncancellable(e ast.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	if c, ok := analysisutil.Unparen(e).(*ast.CallExpr); ok {
		// Judged at this call, before tracing into the deriver (whose
		// parameter other callers may give anything).
		if i := m.valueArg(c); i >= 0 && i < len(c.Args) {
			return m.uncancellable(c.Args[i], depth+1)
		}
	}
	origins := m.vals.Trace(e)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		switch x := analysisutil.Unparen(o.Expr).(type) {
		case *ast.CallExpr:
			switch {
			case m.isContextFunc(x, "Background", "TODO", "WithoutCancel"):
			case analysisutil.IsFunc(analysisutil.Callee(m.pass.TypesInfo, x), "net/http", "NewRequest"):
			case m.valueArg(x) >= 0 && m.valueArg(x) < len(x.Args):
				// context.WithValue, a deriver of values (a logger put
				// on the context: ZLog.WithContext(ctx)): the
				// parent's lifetime.
				if !m.uncancellable(x.Args[m.valueArg(x)], depth+1) {
					return false
				}
			default:
				return false
			}
		case *ast.Ident:
			v, ok := m.pass.TypesInfo.Uses[x].(*types.Var)
			if !ok || !m.paramNeverCancelled(v, depth) {
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
