package admission

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/httpstatus"
	"github.com/resilint/resilint/analyzers/internal/model/rediscmd"
)

// Analyzer is the admission layer of the model.
var Analyzer = &analysis.Analyzer{
	Name:       "admission",
	Doc:        "recognize the functions whose result a rate limiter, semaphore or bulkhead decides, and the statuses written where one refused (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Requires:   []*analysis.Analyzer{rediscmd.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*AdmitsFact)(nil)},
}

// AdmitsFact marks a function whose result says whether a limiter takes
// one more request: it asks a rate limiter, a semaphore or a bulkhead
// (catalog.AdmissionRows), takes a slot with a send that does not wait (a
// select with a default), or adds to an atomic count and uses the sum
// (catalog.CountRows) — itself or through a function with this fact, of
// any package. (A Redis counter is known by the rediscmd layer's facts
// instead.)
type AdmitsFact struct{}

func (*AdmitsFact) AFact()         {}
func (*AdmitsFact) String() string { return "admits" }

// Result knows which calls decide by load.
type Result struct {
	pass  *analysis.Pass
	redis *rediscmd.Result
	local map[*types.Func]bool    // this package's functions with the fact
	edges map[[2]*types.Func]bool // callee, caller pairs seen
}

// run finds the package's functions that admit and exports their facts.
// Each function's body is walked once; the fact then spreads from callee
// to caller along the package's calls, each edge followed once.
func run(pass *analysis.Pass) (any, error) {
	a := &Result{pass: pass, redis: pass.ResultOf[rediscmd.Analyzer].(*rediscmd.Result),
		local: map[*types.Func]bool{}, edges: map[[2]*types.Func]bool{}}
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
				if call != nil && countAdd(analysisutil.Callee(pass.TypesInfo, call)) {
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
	return a, nil
}

// visit records what a call in caller's body says: an edge to a function
// of this package, or an admission of any other.
func (a *Result) visit(call *ast.CallExpr, caller *types.Func, callers map[*types.Func][]*types.Func, direct *bool) {
	fn := analysisutil.Callee(a.pass.TypesInfo, call)
	switch {
	case fn == nil:
	case fn.Pkg() == a.pass.Pkg:
		fn = fn.Origin()
		if e := [2]*types.Func{fn, caller}; !a.edges[e] {
			a.edges[e] = true
			callers[fn] = append(callers[fn], caller)
		}
	case a.Admits(fn):
		*direct = true
	}
}

// Admits reports whether a call of fn decides by load: an admission row,
// an atomic add whose sum is used, or a function with the fact.
func (a *Result) Admits(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if catalog.IsAdmission(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()) || countAdd(fn) {
		return true
	}
	if fn.Pkg() == a.pass.Pkg {
		return a.local[fn]
	}
	return a.pass.ImportObjectFact(fn, new(AdmitsFact))
}

// countAdd reports whether fn adds to an atomic count and returns the
// sum (catalog.CountRows: sync/atomic's AddInt64..., the Add method of
// its types).
func countAdd(fn *types.Func) bool {
	return fn != nil && catalog.IsCountAdd(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
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

// Sheds reports whether a limiter refused the request the write answers:
// an if whose branch holds the write tests an admission or a function
// that counts in Redis (a call of one, or a variable assigned from one),
// or the reply of a count the function makes itself; or the write is the
// default of a select that tries to take a slot.
func (a *Result) Sheds(w *httpstatus.Write) bool {
	g := GuardOf(a.pass, w.Func, w.Call)
	if g == nil {
		return false
	}
	info := a.pass.TypesInfo
	if slices.ContainsFunc(g.Calls, func(c *ast.CallExpr) bool { return a.Admits(analysisutil.Callee(info, c)) }) {
		return true
	}
	for _, f := range a.redis.Funcs {
		if f.Obj != nil && f.Counts() && slices.ContainsFunc(g.Calls, func(c *ast.CallExpr) bool { return analysisutil.Callee(info, c) == f.Obj }) {
			return true
		}
		if f.Node != w.Func {
			continue
		}
		for _, c := range f.Cmds {
			if (c.Kind == catalog.RedisIncr || c.Kind == catalog.RedisRead) && slices.ContainsFunc(c.Reply, func(v types.Object) bool { return g.Vars[v] }) && f.Counts() {
				return true
			}
		}
	}
	return defaultOfTry(g.Body, w.Call.Pos())
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
