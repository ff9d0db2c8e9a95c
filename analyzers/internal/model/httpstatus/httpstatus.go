// Package httpstatus is a layer of resilint's model: the response statuses
// an HTTP handler writes, and which response headers are set on every path
// that reaches each write (a header set after the status is written is
// never sent).
//
// By itself it reports nothing. It exports a RespFact for every function
// that sets headers on, or writes a status to, a ResponseWriter (or an
// http.Header) it is given as a parameter, so that the caller of
// `tooManyRequests(w)` or `setRetryAfter(w, d)`, in this package or
// another, knows what it does.
//
// Calls are recognized by type through the catalog's HTTP rows, never by
// their spelling.
package httpstatus

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// Analyzer is the httpstatus layer of the model.
var Analyzer = &analysis.Analyzer{
	Name:       "httpstatus",
	Doc:        "recognize the statuses HTTP handlers write and the response headers set before each (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*RespFact)(nil)},
}

// maxFactEntries bounds a fact's lists.
const maxFactEntries = 16

// RespFact says what a function does to the responses it is given.
type RespFact struct {
	// Sets lists the headers the function sets on a parameter (a
	// ResponseWriter or an http.Header) on every path that returns.
	Sets []ParamHeaders
	// SetsIfTrue, for a function whose one result is a bool, lists the
	// headers it sets on every path that returns the constant true (`if
	// over { w.Header().Set("Retry-After", ...); return true }`): a
	// caller that tests the result has them set in its true branch.
	SetsIfTrue []ParamHeaders
	// Writes lists the statuses it writes to a ResponseWriter parameter.
	Writes []FactWrite
}

// ParamHeaders is a set of canonical header names on parameter Param.
type ParamHeaders struct {
	Param   int
	Headers []string
}

// FactWrite is a status written to the ResponseWriter parameter Param:
// the constant Status, or (StatusParam >= 0) the value of that parameter;
// Before lists the headers set on every path to the write, Site where it
// is.
type FactWrite struct {
	Param       int
	Status      int
	StatusParam int
	Before      []string
	Site        string
}

func (*RespFact) AFact() {}

func (f *RespFact) String() string {
	var parts []string
	for _, s := range f.Sets {
		parts = append(parts, fmt.Sprintf("sets $%d %s", s.Param, strings.Join(s.Headers, "+")))
	}
	for _, s := range f.SetsIfTrue {
		parts = append(parts, fmt.Sprintf("sets $%d %s if true", s.Param, strings.Join(s.Headers, "+")))
	}
	for _, w := range f.Writes {
		st := fmt.Sprint(w.Status)
		if w.StatusParam >= 0 {
			st = fmt.Sprintf("$%d", w.StatusParam)
		}
		s := fmt.Sprintf("writes $%d %s", w.Param, st)
		if len(w.Before) > 0 {
			s += " after " + strings.Join(w.Before, "+")
		}
		parts = append(parts, s)
	}
	return "resp(" + strings.Join(parts, ", ") + ")"
}

// Write is a status written to a ResponseWriter, directly or by a called
// function.
type Write struct {
	Call *ast.CallExpr
	// Writer is the ResponseWriter variable written; WriterParam its index
	// among the enclosing function's parameters, -1 if it is not one.
	Writer      types.Object
	WriterParam int
	// Status is the status written, 0 when not a constant (StatusParam is
	// then the enclosing function's parameter it comes from, or -1).
	Status      int
	StatusParam int
	// Before lists the canonical names of the headers set on the writer
	// on every path that reaches the write, by the enclosing function or
	// by the called function before it writes.
	Before []string
	// Via is the called function that writes, nil for a direct write;
	// Site is where it writes.
	Via  *types.Func
	Site string
	// Func is the enclosing *ast.FuncDecl or *ast.FuncLit; Handler says
	// that it has the signature of an http.HandlerFunc or is a literal
	// (whose writer comes from whatever runs it).
	Func    ast.Node
	Handler bool
	// HookCalled: the enclosing function is kept only in function-typed
	// fields or variables that the package calls with the writer, and
	// Before includes the headers every such call sets first.
	HookCalled bool
}

// Result is the httpstatus layer of one package.
type Result struct {
	Writes []*Write
}

// state is the set of headers set on each owner (a ResponseWriter or
// header variable) on every path so far. nil means unreachable.
type state map[hkey]bool

type hkey struct {
	owner  types.Object
	header string
}

func (s state) clone() state {
	if s == nil {
		return nil
	}
	c := make(state, len(s))
	for k := range s {
		c[k] = true
	}
	return c
}

// meet is the intersection of two states (nil: unreachable, the identity).
func meet(a, b state) state {
	if a == nil {
		return b.clone()
	}
	if b == nil {
		return a
	}
	for k := range a {
		if !b[k] {
			delete(a, k)
		}
	}
	return a
}

type builder struct {
	pass  *analysis.Pass
	funcs *analysisutil.Summaries[*RespFact]
	hooks *hookCalls
	res   *Result
}

type unit struct {
	node   ast.Node
	params map[types.Object]int
	alias  map[types.Object]types.Object // h := w.Header()
	exit   state
	// exitTrue: the meet of the states at the returns of the constant
	// true, when the function's one result is a bool (boolResult).
	exitTrue   state
	boolResult bool
	// boolCalls: the local bools last assigned a call's one result
	// (`limited := l.over(w, key)`), for the ifs that test them.
	boolCalls map[types.Object]*ast.CallExpr
	handler   bool
	writes    []*Write
	lits      []*ast.FuncLit
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{}
	if !analysisutil.Imports(pass.Pkg, catalog.NetHTTP) {
		return res, nil
	}
	b := &builder{pass: pass, funcs: analysisutil.NewSummaries[*RespFact](pass.TypesInfo, pass.Files), hooks: newHookCalls(), res: res}
	for _, fn := range b.funcs.Order {
		b.function(fn)
	}
	b.applyHooks()
	sort.Slice(res.Writes, func(i, j int) bool { return res.Writes[i].Call.Pos() < res.Writes[j].Call.Pos() })
	b.funcs.Done(func(fn *types.Func, f *RespFact) {
		if f != nil {
			pass.ExportObjectFact(fn, f)
		}
	})
	return res, nil
}

// function interprets fn's body, once, and returns its fact (nil when it
// does nothing to the responses it is given).
func (b *builder) function(fn *types.Func) *RespFact {
	f, _ := b.funcs.Get(fn, func(fn *types.Func, d *ast.FuncDecl) *RespFact {
		sig := fn.Type().(*types.Signature)
		u := b.newUnit(d, sig)
		b.runUnit(u, d.Body)
		return b.factOf(u, sig)
	})
	return f
}

func (b *builder) newUnit(n ast.Node, sig *types.Signature) *unit {
	u := &unit{node: n, params: map[types.Object]int{}, alias: map[types.Object]types.Object{}, boolCalls: map[types.Object]*ast.CallExpr{}}
	u.boolResult = sig.Results().Len() == 1 && analysisutil.IsBool(sig.Results().At(0).Type())
	for i := range sig.Params().Len() {
		u.params[sig.Params().At(i)] = i
	}
	_, lit := n.(*ast.FuncLit)
	u.handler = lit || isHandlerSig(sig)
	return u
}

func (b *builder) runUnit(u *unit, body *ast.BlockStmt) {
	out := b.stmts(u, body.List, state{})
	u.exit = meet(u.exit, out)
	b.res.Writes = append(b.res.Writes, u.writes...)
	lits := u.lits
	for _, lit := range lits {
		sig, ok := b.pass.TypesInfo.TypeOf(lit).(*types.Signature)
		if !ok {
			continue
		}
		lu := b.newUnit(lit, sig)
		b.runUnit(lu, lit.Body)
	}
}

// isHandlerSig: func(http.ResponseWriter, *http.Request).
func isHandlerSig(sig *types.Signature) bool {
	p := sig.Params()
	return p.Len() == 2 && isWriter(p.At(0).Type()) && analysisutil.IsNamedType(p.At(1).Type(), catalog.NetHTTP, "Request")
}

func isWriter(t types.Type) bool {
	return analysisutil.IsNamedType(t, catalog.NetHTTP, "ResponseWriter")
}

func isHeader(t types.Type) bool {
	if _, ptr := types.Unalias(t).(*types.Pointer); ptr {
		return false
	}
	return analysisutil.IsNamedType(t, catalog.NetHTTP, "Header")
}

// stmts interprets a statement list from in; it returns the state after
// it (nil when no path gets there).
func (b *builder) stmts(u *unit, list []ast.Stmt, in state) state {
	s := in
	for _, st := range list {
		if s == nil {
			return nil
		}
		s = b.stmt(u, st, s)
	}
	return s
}

func (b *builder) stmt(u *unit, st ast.Stmt, s state) state {
	if s == nil {
		return nil
	}
	switch st := st.(type) {
	case *ast.BlockStmt:
		return b.stmts(u, st.List, s)
	case *ast.LabeledStmt:
		return b.stmt(u, st.Stmt, s)
	case *ast.IfStmt:
		if st.Init != nil {
			s = b.stmt(u, st.Init, s)
		}
		b.expr(u, st.Cond, s)
		ts := s.clone()
		b.ifTrue(u, st.Cond, ts)
		then := b.stmts(u, st.Body.List, ts)
		els := s
		if st.Else != nil {
			els = b.stmt(u, st.Else, s.clone())
		} else if i := b.nonEmptyParam(u, st.Cond); i >= 0 && then != nil {
			// if k != "" { w.Header().Set(k, v) }: with k empty there
			// is no header to set; the header k names is set either way.
			els = s.clone()
			for k := range then {
				if j, ok := paramRef(k.header); ok && j == i {
					els[k] = true
				}
			}
		}
		return meet(then, els)
	case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		var init ast.Stmt
		var body *ast.BlockStmt
		switch st := st.(type) {
		case *ast.SwitchStmt:
			init, body = st.Init, st.Body
			if st.Init != nil {
				s = b.stmt(u, init, s)
				init = nil
			}
			if st.Tag != nil {
				b.expr(u, st.Tag, s)
			}
		case *ast.TypeSwitchStmt:
			init, body = st.Init, st.Body
			if init != nil {
				s = b.stmt(u, init, s)
			}
			s = b.stmt(u, st.Assign, s)
		case *ast.SelectStmt:
			body = st.Body
		}
		var out state
		hasDefault := false
		for _, c := range body.List {
			var list []ast.Stmt
			cs := s.clone()
			switch c := c.(type) {
			case *ast.CaseClause:
				if c.List == nil {
					hasDefault = true
				}
				for _, e := range c.List {
					b.expr(u, e, cs)
				}
				list = c.Body
			case *ast.CommClause:
				if c.Comm == nil {
					hasDefault = true
				} else {
					cs = b.stmt(u, c.Comm, cs)
				}
				list = c.Body
			}
			out = meet(out, b.stmts(u, list, cs))
		}
		if _, sel := st.(*ast.SelectStmt); !hasDefault && !sel {
			out = meet(out, s)
		}
		return out
	case *ast.ForStmt:
		if st.Init != nil {
			s = b.stmt(u, st.Init, s)
		}
		if st.Cond != nil {
			b.expr(u, st.Cond, s)
		}
		b.stmts(u, st.Body.List, s.clone())
		if st.Cond == nil && !hasBreak(st.Body) {
			return nil // for {} without break: only returns leave
		}
		return s
	case *ast.RangeStmt:
		b.expr(u, st.X, s)
		b.stmts(u, st.Body.List, s.clone())
		return s
	case *ast.ReturnStmt:
		for _, e := range st.Results {
			b.expr(u, e, s)
		}
		u.exit = meet(u.exit, s.clone())
		if u.boolResult && len(st.Results) == 1 {
			if v := b.pass.TypesInfo.Types[st.Results[0]].Value; v != nil && v.Kind() == constant.Bool && constant.BoolVal(v) {
				u.exitTrue = meet(u.exitTrue, s.clone())
			}
		}
		return nil
	case *ast.BranchStmt:
		if st.Tok == token.BREAK || st.Tok == token.FALLTHROUGH {
			return s
		}
		return nil
	case *ast.ExprStmt:
		b.expr(u, st.X, s)
		if call, ok := analysisutil.Unparen(st.X).(*ast.CallExpr); ok {
			if id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident); ok {
				if bi, ok := b.pass.TypesInfo.Uses[id].(*types.Builtin); ok && bi.Name() == "panic" {
					return nil
				}
			}
		}
		return s
	case *ast.AssignStmt:
		for _, e := range st.Rhs {
			b.expr(u, e, s)
		}
		for i, lhs := range st.Lhs {
			b.expr(u, lhs, s)
			if id, ok := lhs.(*ast.Ident); ok {
				if obj := b.pass.TypesInfo.ObjectOf(id); obj != nil {
					delete(u.boolCalls, obj)
					if call, ok := analysisutil.Unparen(st.Rhs[0]).(*ast.CallExpr); ok && len(st.Lhs) == 1 && len(st.Rhs) == 1 {
						u.boolCalls[obj] = call
					}
				}
			}
			// h := w.Header()
			if id, ok := lhs.(*ast.Ident); ok && len(st.Lhs) == len(st.Rhs) {
				if obj := b.pass.TypesInfo.ObjectOf(id); obj != nil {
					if owner := b.headerOwner(u, st.Rhs[i]); owner != nil && owner != obj {
						u.alias[obj] = owner
					}
				}
			}
			// w.Header()["Retry-After"] = ...
			if ix, ok := analysisutil.Unparen(lhs).(*ast.IndexExpr); ok && isHeader(b.pass.TypesInfo.TypeOf(ix.X)) {
				if owner := b.headerOwner(u, ix.X); owner != nil {
					s[hkey{owner, b.setName(u, ix.Index)}] = true
				}
			}
		}
		return s
	case *ast.DeclStmt, *ast.SendStmt, *ast.IncDecStmt, *ast.GoStmt, *ast.DeferStmt:
		b.expr(u, st, s)
		return s
	}
	return s
}

func hasBreak(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok == token.BREAK || n.Tok == token.GOTO {
				found = true
			}
		}
		return !found
	})
	return found
}

// expr records the header sets and status writes of the calls in n, in
// source order; function literals are units of their own.
func (b *builder) expr(u *unit, n ast.Node, s state) {
	if n == nil || s == nil {
		return
	}
	var calls []*ast.CallExpr
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			u.lits = append(u.lits, x)
			return false
		case *ast.CallExpr:
			calls = append(calls, x)
		}
		return true
	})
	// Arguments are evaluated before the call: inner calls first.
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].End() < calls[j].End() })
	for _, c := range calls {
		b.call(u, c, s)
	}
}

func (b *builder) call(u *unit, call *ast.CallExpr, s state) {
	info := b.pass.TypesInfo
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		b.hookCall(u, call, s)
		return
	}
	if analysisutil.PkgPath(fn) == catalog.NetHTTP {
		row := catalog.LookupHTTP(catalog.NetHTTP, analysisutil.RecvTypeName(fn), fn.Name())
		if row == nil {
			return
		}
		switch row.Role {
		case catalog.HTTPHeaderSet:
			sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || row.KeyArg >= len(call.Args) {
				return
			}
			if owner := b.headerOwner(u, sel.X); owner != nil {
				s[hkey{owner, b.setName(u, call.Args[row.KeyArg])}] = true
			}
		case catalog.HTTPWriteStatus:
			var wexpr ast.Expr
			if row.WriterArg < 0 {
				sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
				if !ok {
					return
				}
				wexpr = sel.X
			} else if row.WriterArg < len(call.Args) {
				wexpr = call.Args[row.WriterArg]
			}
			if row.StatusArg >= len(call.Args) || wexpr == nil {
				return
			}
			w := &Write{Call: call, StatusParam: -1, WriterParam: -1, Func: u.node, Handler: u.handler}
			b.status(u, w, call.Args[row.StatusArg])
			b.writer(u, w, wexpr, s, nil)
			u.writes = append(u.writes, w)
		}
		return
	}
	f := b.factOfCall(call)
	if f == nil {
		return
	}
	sig := fn.Type().(*types.Signature)
	arg := func(i int) ast.Expr {
		if i < len(call.Args) && !(sig.Variadic() && i >= sig.Params().Len()-1) {
			return call.Args[i]
		}
		return nil
	}
	// Writes first (they happen inside the call, after the caller's sets),
	// then the sets the call leaves behind.
	for _, fw := range f.Writes {
		wexpr := arg(fw.Param)
		if wexpr == nil {
			continue
		}
		w := &Write{Call: call, StatusParam: -1, WriterParam: -1, Func: u.node, Handler: u.handler, Via: fn, Site: fw.Site, Status: fw.Status}
		if fw.StatusParam >= 0 {
			w.Status = 0
			if se := arg(fw.StatusParam); se != nil {
				b.status(u, w, se)
			}
		}
		before := make([]string, len(fw.Before))
		for i, h := range fw.Before {
			before[i] = b.resolveName(u, call, h)
		}
		b.writer(u, w, wexpr, s, before)
		u.writes = append(u.writes, w)
	}
	b.applySets(u, call, f.Sets, s)
}
