// Package respread is a layer of resilint's model: what client code reads
// of the HTTP responses it gets — which statuses it tells apart
// (comparisons and switches on a response's StatusCode) and which
// response headers it reads (Header.Get, Header.Values, indexing).
//
// By itself it reports nothing. It exports a ReadFact for every function
// that reads a header or tells statuses apart, so that a caller, in this
// package or another, knows that `retryAfter(resp)` reads Retry-After and
// `retryable(resp.StatusCode)` tells 429 from 200.
package respread

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/textproto"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// Analyzer is the respread layer of the model.
var Analyzer = &analysis.Analyzer{
	Name:       "respread",
	Doc:        "recognize the response statuses client code tells apart and the response headers it reads (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*ReadFact)(nil)},
}

// Samples are the statuses whose tests the layer records: each is
// recorded when a test names it and tells it apart both from success
// (200) and from a plain client error (404), as `== 429`, `!= 503` and
// `case 503:` do, and `!= 200` does not; a range (`>= 500`) names no
// status.
var Samples = []int{429, 503}

// Reference statuses a test must tell a sample apart from.
const (
	refOK       = 200
	refNotFound = 404
)

// AnyHeader stands for a header read whose name is not a constant: the
// code may read any header, Retry-After included.
const AnyHeader = "*"

// ReadFact says what a function reads of the responses it is given.
type ReadFact struct {
	// Headers it reads (canonical names), on some path.
	Headers []string
	// ParamStatuses: statuses (of Samples) it tells apart by
	// testing a parameter: an int (a status code it is given) or the
	// StatusCode of an *http.Response it is given. Tests of responses it
	// gets by itself are its own business: the caller sees only what it
	// returns.
	ParamStatuses []ParamStatus
}

// ParamStatus is a set of statuses told apart on an int parameter.
type ParamStatus struct {
	Param    int
	Statuses []int
}

func (*ReadFact) AFact() {}

func (f *ReadFact) String() string {
	var parts []string
	if len(f.Headers) > 0 {
		parts = append(parts, "reads "+strings.Join(f.Headers, "+"))
	}
	for _, p := range f.ParamStatuses {
		parts = append(parts, fmt.Sprintf("tests $%d %v", p.Param, p.Statuses))
	}
	return "respread(" + strings.Join(parts, ", ") + ")"
}

// Read is a response header read, directly or by a called function.
type Read struct {
	Node   ast.Node
	Header string
	Via    *types.Func
}

// Test is a test of a response's status that tells Statuses (of
// Samples) apart, directly or in a called function.
type Test struct {
	Node     ast.Node
	Statuses []int
	Via      *types.Func
}

// Result is the respread layer of one package, in source order.
type Result struct {
	Reads []*Read
	Tests []*Test
}

// In returns the reads and tests inside the nodes.
func (r *Result) In(nodes ...ast.Node) (reads []*Read, tests []*Test) {
	for _, o := range nodes {
		if o == nil {
			continue
		}
		i := sort.Search(len(r.Reads), func(i int) bool { return r.Reads[i].Node.Pos() >= o.Pos() })
		for ; i < len(r.Reads) && r.Reads[i].Node.Pos() < o.End(); i++ {
			if r.Reads[i].Node.End() <= o.End() {
				reads = append(reads, r.Reads[i])
			}
		}
		j := sort.Search(len(r.Tests), func(j int) bool { return r.Tests[j].Node.Pos() >= o.Pos() })
		for ; j < len(r.Tests) && r.Tests[j].Node.Pos() < o.End(); j++ {
			if r.Tests[j].Node.End() <= o.End() {
				tests = append(tests, r.Tests[j])
			}
		}
	}
	return reads, tests
}

type builder struct {
	pass  *analysis.Pass
	funcs *analysisutil.Summaries[*ReadFact]
	res   *Result
	lists map[*types.Var][]int // statusLists, built on first need (nil: none)
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{}
	if len(pass.Pkg.Imports()) == 0 {
		return res, nil
	}
	b := &builder{pass: pass, funcs: analysisutil.NewSummaries[*ReadFact](pass.TypesInfo, pass.Files), res: res}
	for _, fn := range b.funcs.Order {
		b.function(fn)
	}
	sort.Slice(res.Reads, func(i, j int) bool { return res.Reads[i].Node.Pos() < res.Reads[j].Node.Pos() })
	sort.Slice(res.Tests, func(i, j int) bool { return res.Tests[i].Node.Pos() < res.Tests[j].Node.Pos() })
	b.funcs.Done(func(fn *types.Func, f *ReadFact) {
		if f != nil {
			pass.ExportObjectFact(fn, f)
		}
	})
	return res, nil
}

func (b *builder) function(fn *types.Func) *ReadFact {
	f, _ := b.funcs.Get(fn, b.summarize)
	return f
}

func (b *builder) summarize(fn *types.Func, d *ast.FuncDecl) *ReadFact {
	params := map[types.Object]int{}
	sig := fn.Type().(*types.Signature)
	for i := range sig.Params().Len() {
		params[sig.Params().At(i)] = i
	}
	f := &ReadFact{}
	paramSt := map[int][]int{}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			b.call(n, params, paramSt, f)
		case *ast.IndexExpr:
			if subj, ok := b.subject(n.Index, params); ok {
				// retryable[resp.StatusCode] of a set of statuses.
				if st, ok := b.statusList(n.X); ok {
					b.record(n, subj, inSamples(st), paramSt)
				}
			}
			if isHeader(b.pass.TypesInfo.TypeOf(n.X)) {
				if h, ok := b.headerName(n.Index); ok {
					b.read(n, h, nil, f)
				} else if b.responseHeader(n.X) {
					b.read(n, AnyHeader, nil, f) // resp.Header[name]
				}
			}
		case *ast.RangeStmt:
			// for k, v := range resp.Header { if strings.EqualFold(k,
			// "Retry-After") ... }: it may read any header.
			if b.responseHeader(n.X) {
				b.read(n, AnyHeader, nil, f)
			}
		case *ast.BinaryExpr:
			b.compare(n, params, paramSt)
		case *ast.SwitchStmt:
			b.switchStmt(n, params, paramSt)
		}
		return true
	})
	for i := range sig.Params().Len() {
		if st := paramSt[i]; len(st) > 0 {
			f.ParamStatuses = append(f.ParamStatuses, ParamStatus{Param: i, Statuses: norm(st)})
		}
	}
	f.Headers = normS(f.Headers)
	if len(f.Headers) == 0 && len(f.ParamStatuses) == 0 {
		return nil
	}
	return f
}

// handsOnResponse reports whether call gives an *http.Response or an
// http.Header, as a parameter of that type, to code the model cannot see
// that can pace the retry by it: a method of an interface some method of
// which takes a context.Context or returns a time.Duration (a limiter
// that records the response and makes the next attempt wait), or a
// function value that returns a time.Duration. A hook that only observes
// (a plugin's OnRequestEnd, a logger) paces nothing.
func (b *builder) handsOnResponse(call *ast.CallExpr, fn *types.Func) bool {
	if analysisutil.IsStd(b.pass.Pkg.Path()) {
		return false // net/http's own transport reads no Retry-After
	}
	var sig *types.Signature
	if fn != nil {
		s, ok := fn.Type().(*types.Signature)
		if !ok || s.Recv() == nil || !types.IsInterface(s.Recv().Type()) {
			return false
		}
		iface, ok := s.Recv().Type().Underlying().(*types.Interface)
		if !ok || !paces(iface) {
			return false
		}
		sig = s
	} else {
		if tv := b.pass.TypesInfo.Types[call.Fun]; tv.IsType() || tv.IsBuiltin() {
			return false // a conversion, make(http.Header)
		}
		t := b.pass.TypesInfo.TypeOf(call.Fun)
		if t == nil {
			return false
		}
		s, ok := t.Underlying().(*types.Signature)
		if !ok || !returnsDuration(s) {
			return false
		}
		sig = s
	}
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		if analysisutil.IsNamedType(t, catalog.NetHTTP, "Response") || analysisutil.IsNamedType(t, catalog.NetHTTP, "Header") {
			return true
		}
	}
	return false
}

// paces reports whether some method of iface takes a context.Context or
// returns a time.Duration: it can make a caller wait, or say how long.
func paces(iface *types.Interface) bool {
	for i := range iface.NumMethods() {
		sig := iface.Method(i).Type().(*types.Signature)
		if returnsDuration(sig) {
			return true
		}
		for j := range sig.Params().Len() {
			if analysisutil.IsNamedType(sig.Params().At(j).Type(), "context", "Context") {
				return true
			}
		}
	}
	return false
}

// returnsDuration reports whether sig has a time.Duration result.
func returnsDuration(sig *types.Signature) bool {
	for i := range sig.Results().Len() {
		if analysisutil.IsNamedType(sig.Results().At(i).Type(), "time", "Duration") {
			return true
		}
	}
	return false
}

func norm(s []int) []int        { sort.Ints(s); return slices.Compact(s) }
func normS(s []string) []string { sort.Strings(s); return slices.Compact(s) }

func (b *builder) read(n ast.Node, h string, via *types.Func, f *ReadFact) {
	b.res.Reads = append(b.res.Reads, &Read{Node: n, Header: h, Via: via})
	f.Headers = append(f.Headers, h)
}

func (b *builder) test(n ast.Node, st []int, via *types.Func) {
	if len(st) == 0 {
		return
	}
	b.res.Tests = append(b.res.Tests, &Test{Node: n, Statuses: st, Via: via})
}

func (b *builder) call(call *ast.CallExpr, params map[types.Object]int, paramSt map[int][]int, f *ReadFact) {
	fn := analysisutil.Callee(b.pass.TypesInfo, call)
	if b.handsOnResponse(call, fn) {
		// lim.Record(resp), onResponse(resp): code the model cannot see
		// is given the response, and may read any of its headers.
		b.read(call, AnyHeader, nil, f)
		return
	}
	if fn == nil {
		return
	}
	if (analysisutil.IsFunc(fn, "slices", "Contains") || analysisutil.IsFunc(fn, "slices", "Index")) && len(call.Args) == 2 {
		// slices.Contains(retryable, resp.StatusCode) of a list of
		// statuses.
		if subj, ok := b.subject(call.Args[1], params); ok {
			if st, ok := b.statusList(call.Args[0]); ok {
				b.record(call, subj, inSamples(st), paramSt)
			}
		}
		return
	}
	if analysisutil.PkgPath(fn) == catalog.NetHTTP {
		row := catalog.LookupHTTP(catalog.NetHTTP, analysisutil.RecvTypeName(fn), fn.Name())
		if row != nil && row.Role == catalog.HTTPHeaderGet && row.KeyArg < len(call.Args) {
			if h, ok := b.headerName(call.Args[row.KeyArg]); ok {
				b.read(call, h, nil, f)
			} else {
				// resp.Header.Get(name) of a name it is given or
				// iterates over: it may be any header.
				b.read(call, AnyHeader, nil, f)
			}
		}
		return
	}
	var cf *ReadFact
	if fn.Pkg() == b.pass.Pkg {
		cf = b.function(fn)
	} else if fn.Pkg() != nil {
		var rf ReadFact
		if b.pass.ImportObjectFact(fn, &rf) {
			cf = &rf
		}
	}
	if cf == nil {
		return
	}
	for _, h := range cf.Headers {
		b.read(call, h, fn, f)
	}
	for _, ps := range cf.ParamStatuses {
		if ps.Param >= len(call.Args) {
			continue
		}
		a := call.Args[ps.Param]
		if b.isStatusCode(a) || analysisutil.IsNamedType(b.pass.TypesInfo.TypeOf(a), catalog.NetHTTP, "Response") {
			b.test(call, ps.Statuses, fn)
			continue
		}
		// Passed on from this function's own parameter.
		if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok {
			if i, ok := params[b.pass.TypesInfo.ObjectOf(id)]; ok {
				paramSt[i] = append(paramSt[i], ps.Statuses...)
			}
		}
	}
}

// writes reports whether parent assigns to (or takes the address of) x.
func writes(parent ast.Node, x ast.Expr) bool {
	switch p := parent.(type) {
	case *ast.AssignStmt:
		return slices.Contains(p.Lhs, x)
	case *ast.IncDecStmt:
		return p.X == x
	case *ast.UnaryExpr:
		return p.Op == token.AND
	}
	return false
}

// isStatusCode: e is the StatusCode field of an http.Response.
func (b *builder) isStatusCode(e ast.Expr) bool {
	sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := b.pass.TypesInfo.ObjectOf(sel.Sel).(*types.Var)
	return ok && v.IsField() && v.Name() == "StatusCode" && analysisutil.IsNamedType(b.pass.TypesInfo.TypeOf(sel.X), catalog.NetHTTP, "Response")
}

// subject says what a tested expression is: a StatusCode (-1) or an int
// parameter (its index); ok is false for anything else.
func (b *builder) subject(e ast.Expr, params map[types.Object]int) (int, bool) {
	if b.isStatusCode(e) {
		// resp.StatusCode of a parameter resp: the caller's response.
		sel := analysisutil.Unparen(e).(*ast.SelectorExpr)
		if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok {
			if i, ok := params[b.pass.TypesInfo.ObjectOf(id)]; ok {
				return i, true
			}
		}
		return -1, true
	}
	if id, ok := analysisutil.Unparen(e).(*ast.Ident); ok {
		if i, ok := params[b.pass.TypesInfo.ObjectOf(id)]; ok {
			return i, true
		}
	}
	return 0, false
}

func (b *builder) constInt(e ast.Expr) (int64, bool) {
	tv, ok := b.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(tv.Value))
}

// responseHeader reports whether e is the Header of a response
// (resp.Header), not of a request the code builds.
func (b *builder) responseHeader(e ast.Expr) bool {
	sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Header" || !isHeader(b.pass.TypesInfo.TypeOf(e)) {
		return false
	}
	t := b.pass.TypesInfo.TypeOf(sel.X)
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return analysisutil.IsNamedType(t, catalog.NetHTTP, "Response")
}

func isHeader(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ptr := types.Unalias(t).(*types.Pointer); ptr {
		return false
	}
	return analysisutil.IsNamedType(t, catalog.NetHTTP, "Header")
}

func (b *builder) headerName(e ast.Expr) (string, bool) {
	tv, ok := b.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return textproto.CanonicalMIMEHeaderKey(constant.StringVal(tv.Value)), true
}
