package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// ctxInScope finds a context usable at pos in the function fn: a
// context.Context parameter, or r.Context() of an *http.Request.
func (m *builder) ctxInScope(fnType *ast.FuncType) string {
	info := m.pass.TypesInfo
	if fnType == nil || fnType.Params == nil {
		return ""
	}
	req := ""
	for _, f := range fnType.Params.List {
		for _, n := range f.Names {
			obj := info.Defs[n]
			if obj == nil || n.Name == "_" {
				continue
			}
			if isContextType(obj.Type()) {
				return n.Name
			}
			if analysisutil.IsNamedType(obj.Type(), "net/http", "Request") && req == "" {
				req = n.Name + ".Context()"
			}
		}
	}
	return req
}

// findDropped finds context.Background() and TODO() used where a context
// is in scope (not in main, init, tests, or goroutines started to outlive
// the request).
func (m *builder) findDropped(t *Timeouts) {
	for _, f := range m.pass.Files {
		if analysisutil.IsTestFile(m.pass, f.Pos()) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil && (fd.Name.Name == "main" || fd.Name.Name == "init") {
				continue
			}
			var walk func(n ast.Node, scope string)
			walk = func(n ast.Node, scope string) {
				var stack []ast.Node
				ast.Inspect(n, func(x ast.Node) bool {
					if x == nil {
						stack = stack[:len(stack)-1]
						return false
					}
					var parent ast.Node
					if len(stack) > 0 {
						parent = stack[len(stack)-1]
					}
					stack = append(stack, x)
					switch y := x.(type) {
					case *ast.GoStmt:
						stack = stack[:len(stack)-1]
						return false // work meant to outlive the caller
					case *ast.DeferStmt:
						stack = stack[:len(stack)-1]
						return false // cleanup that must run after the caller gave up
					case *ast.IfStmt:
						// if ctx == nil { ctx = context.Background() }: a
						// default for a missing context, not a dropped one.
						if be, ok := analysisutil.Unparen(y.Cond).(*ast.BinaryExpr); ok && be.Op == token.EQL {
							if isContextType(m.pass.TypesInfo.TypeOf(be.X)) && m.pass.TypesInfo.Types[be.Y].IsNil() ||
								isContextType(m.pass.TypesInfo.TypeOf(be.Y)) && m.pass.TypesInfo.Types[be.X].IsNil() {
								if y.Else != nil {
									walk(y.Else, scope)
								}
								stack = stack[:len(stack)-1]
								return false
							}
						}
					case *ast.FuncLit:
						s := m.ctxInScope(y.Type)
						// A closure kept to run later (stored in a field, a
						// composite literal, returned: m.uncounted) runs
						// after the caller's context may be gone.
						if s == "" && !m.uncounted[y] {
							s = scope
						}
						walk(y.Body, s)
						stack = stack[:len(stack)-1]
						return false
					case *ast.CallExpr:
						if scope != "" && m.isContextFunc(y, "Background", "TODO") && m.passedDown(y, parent, fd.Body) {
							t.Dropped = append(t.Dropped, &DroppedContext{Call: y, InScope: scope})
						}
					}
					return true
				})
			}
			walk(fd.Body, m.ctxInScope(fd.Type))
		}
	}
}

// passedDown reports whether a context.Background() call is used for a
// call: an argument of a call (not a logger's), or the value of a
// variable. Comparisons (ctx != context.Background()) and returns of a
// context-choosing helper are not.
func (m *builder) passedDown(bg *ast.CallExpr, parent ast.Node, body *ast.BlockStmt) bool {
	switch p := parent.(type) {
	case *ast.CallExpr:
		for _, a := range p.Args {
			if a == ast.Expr(bg) {
				return !m.isLogCall(p)
			}
		}
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if r == ast.Expr(bg) && i < len(p.Lhs) {
				return !m.onlyCompared(p.Lhs[i], body)
			}
		}
		return true
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if v == ast.Expr(bg) && i < len(p.Names) {
				return !m.onlyCompared(p.Names[i], body)
			}
		}
		return true
	}
	// A field of a composite literal (detached{Context:
	// context.Background(), values: ctx}) builds a value whose use the
	// model cannot follow: a type made to detach is no dropped context.
	return false
}

func (m *builder) isLogCall(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return false
	}
	switch analysisutil.PkgPath(fn) {
	case "log", "log/slog", "runtime/pprof", "runtime/trace":
		return true
	}
	name := fn.Name()
	for _, p := range []string{"Print", "Log", "Debug", "Info", "Warn", "Error", "Trace", "Fatal"} {
		if len(name) >= len(p) && name[:len(p)] == p {
			return true
		}
	}
	return false
}

// onlyCompared reports whether the local variable lhs (bg :=
// context.Background()) is used in body only in comparisons (a == bg):
// a reference value, not a context any call runs under.
func (m *builder) onlyCompared(lhs ast.Expr, body *ast.BlockStmt) bool {
	id, ok := analysisutil.Unparen(lhs).(*ast.Ident)
	if !ok {
		return false
	}
	info := m.pass.TypesInfo
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || !isLocal(v) {
		return false
	}
	compared, other := 0, false
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		x, ok := n.(*ast.Ident)
		if !ok || x == id || info.Uses[x] != v {
			return true
		}
		if len(stack) >= 2 {
			if be, ok := stack[len(stack)-2].(*ast.BinaryExpr); ok && (be.Op == token.EQL || be.Op == token.NEQ) {
				compared++
				return true
			}
		}
		other = true
		return true
	})
	return compared > 0 && !other
}
