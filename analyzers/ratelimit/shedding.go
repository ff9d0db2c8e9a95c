package ratelimit

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/httpstatus"
	"github.com/resilint/resilint/analyzers/internal/model/rediscmd"
)

// AdmitsFact marks a function whose result says whether a limiter takes
// one more request: it asks a rate limiter, a semaphore or a bulkhead
// (catalog.AdmissionRows), takes a slot with a send that does not wait (a
// select with a default), or adds to an atomic count and uses the sum —
// itself or through a function with this fact, of any package. (A Redis
// counter is known by the rediscmd layer's facts instead.)
type AdmitsFact struct{}

func (*AdmitsFact) AFact()         {}
func (*AdmitsFact) String() string { return "admits" }

// admissions knows which calls decide by load.
type admissions struct {
	pass  *analysis.Pass
	local map[*types.Func]bool    // this package's functions with the fact
	edges map[[2]*types.Func]bool // callee, caller pairs seen
}

// findAdmissions finds the package's functions that admit, exports their
// facts and returns what a write's guards are judged by. Each function's
// body is walked once; the fact then spreads from callee to caller along
// the package's calls, each edge followed once.
func findAdmissions(pass *analysis.Pass) *admissions {
	a := &admissions{pass: pass, local: map[*types.Func]bool{}, edges: map[[2]*types.Func]bool{}}
	callers := map[*types.Func][]*types.Func{}
	var work []*types.Func
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Type.Results == nil {
				continue
			}
			obj, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil {
				continue
			}
			direct := false
			var walk func(ast.Node) bool
			walk = func(n ast.Node) bool {
				var call *ast.CallExpr
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.SelectStmt:
					direct = direct || triesSend(n)
				case *ast.ExprStmt:
					call, _ = analysisutil.Unparen(n.X).(*ast.CallExpr)
				case *ast.DeferStmt:
					call = n.Call
				case *ast.GoStmt:
					call = n.Call
				case *ast.CallExpr:
					a.visit(n, obj, callers, &direct)
				}
				if call != nil && atomicAdd(analysisutil.Callee(pass.TypesInfo, call)) {
					// A sum nobody reads: a metric, or a slot given back.
					for _, arg := range call.Args {
						ast.Inspect(arg, walk)
					}
					return false
				}
				return true
			}
			ast.Inspect(fd.Body, walk)
			if direct && !a.local[obj] {
				a.local[obj] = true
				work = append(work, obj)
			}
		}
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, c := range callers[fn] {
			if !a.local[c] {
				a.local[c] = true
				work = append(work, c)
			}
		}
	}
	for fn := range a.local {
		pass.ExportObjectFact(fn, new(AdmitsFact))
	}
	return a
}

// visit records what a call in caller's body says: an edge to a function
// of this package, or an admission of any other.
func (a *admissions) visit(call *ast.CallExpr, caller *types.Func, callers map[*types.Func][]*types.Func, direct *bool) {
	fn := analysisutil.Callee(a.pass.TypesInfo, call)
	switch {
	case fn == nil:
	case fn.Pkg() == a.pass.Pkg:
		fn = fn.Origin()
		if e := [2]*types.Func{fn, caller}; !a.edges[e] {
			a.edges[e] = true
			callers[fn] = append(callers[fn], caller)
		}
	case a.admits(fn):
		*direct = true
	}
}

// admits reports whether a call of fn decides by load: an admission row,
// an atomic add whose sum is used, or a function with the fact.
func (a *admissions) admits(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if catalog.IsAdmission(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()) || atomicAdd(fn) {
		return true
	}
	if fn.Pkg() == a.pass.Pkg {
		return a.local[fn]
	}
	return a.pass.ImportObjectFact(fn, new(AdmitsFact))
}

// counter reports whether f counts requests in Redis: an INCR, or a key
// it both reads and gives an expiry.
func counter(f *rediscmd.Func) bool {
	for _, c := range f.Cmds {
		if c.Kind == catalog.RedisIncr {
			return true
		}
		if c.Kind == catalog.RedisExpire && c.KeyID != "" && slices.ContainsFunc(f.Cmds, func(o *rediscmd.Command) bool {
			return o.Kind == catalog.RedisRead && o.KeyID == c.KeyID
		}) {
			return true
		}
	}
	return false
}

// atomicAdd reports whether fn adds to an atomic integer (sync/atomic's
// AddInt64..., or the Add method of its types).
func atomicAdd(fn *types.Func) bool {
	if fn == nil || analysisutil.PkgPath(fn) != "sync/atomic" {
		return false
	}
	switch fn.Name() {
	case "Add", "AddInt32", "AddInt64", "AddUint32", "AddUint64", "AddUintptr":
		return true
	}
	return false
}

// triesSend reports whether sel takes a slot without waiting: a case
// that sends, and a default.
func triesSend(sel *ast.SelectStmt) bool {
	send, dflt := false, false
	for _, s := range sel.Body.List {
		cc, ok := s.(*ast.CommClause)
		if !ok {
			continue
		}
		switch cc.Comm.(type) {
		case nil:
			dflt = true
		case *ast.SendStmt:
			send = true
		}
	}
	return send && dflt
}

// sheds reports whether a limiter refused the request the write answers:
// an if whose branch holds the write tests an admission or a function
// that counts in Redis (a call of one, or a variable assigned from one),
// or the reply of a count the function makes itself; or the write is the
// default of a select that tries to take a slot.
func (a *admissions) sheds(w *httpstatus.Write, redis *rediscmd.Result) bool {
	g := guardOf(a.pass, w.Func, w.Call)
	if g == nil {
		return false
	}
	info := a.pass.TypesInfo
	if slices.ContainsFunc(g.calls, func(c *ast.CallExpr) bool { return a.admits(analysisutil.Callee(info, c)) }) {
		return true
	}
	for _, f := range redis.Funcs {
		if f.Obj != nil && counter(f) && slices.ContainsFunc(g.calls, func(c *ast.CallExpr) bool { return analysisutil.Callee(info, c) == f.Obj }) {
			return true
		}
		if f.Node != w.Func {
			continue
		}
		for _, c := range f.Cmds {
			if (c.Kind == catalog.RedisIncr || c.Kind == catalog.RedisRead) && slices.ContainsFunc(c.Reply, func(v types.Object) bool { return g.vars[v] }) && counter(f) {
				return true
			}
		}
	}
	return defaultOfTry(g.body, w.Call.Pos())
}

// defaultOfTry reports whether pos is in the default clause of a select
// in body (not in a function literal) that tries to take a slot.
func defaultOfTry(body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || pos < n.Pos() || n.End() <= pos {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			if triesSend(n) {
				for _, s := range n.Body.List {
					if cc, ok := s.(*ast.CommClause); ok && cc.Comm == nil && cc.Pos() <= pos && pos < cc.End() {
						found = true
					}
				}
			}
		}
		return true
	})
	return found
}

// guard is what decides whether a call runs: the variables and calls of
// the conditions of the ifs whose branches hold it, the calls assigned
// to those variables in the function, and the function's body.
type guard struct {
	conds []ast.Expr
	vars  map[types.Object]bool
	calls []*ast.CallExpr
	body  *ast.BlockStmt
}

// guardOf returns the guard of call in fn, nil if fn has no body.
func guardOf(pass *analysis.Pass, fn ast.Node, call *ast.CallExpr) *guard {
	conds, body := guards(fn, call)
	if body == nil {
		return nil
	}
	info := pass.TypesInfo
	g := &guard{conds: conds, vars: map[types.Object]bool{}, body: body}
	for _, c := range conds {
		ast.Inspect(c, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if v, ok := info.Uses[n].(*types.Var); ok {
					g.vars[v] = true
				}
			case *ast.CallExpr:
				g.calls = append(g.calls, n)
			case *ast.FuncLit:
				return false
			}
			return true
		})
	}
	if len(g.vars) == 0 {
		return g
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		call, ok := analysisutil.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && (g.vars[info.Defs[id]] || g.vars[info.Uses[id]]) {
				g.calls = append(g.calls, call)
				break
			}
		}
		return true
	})
	return g
}
