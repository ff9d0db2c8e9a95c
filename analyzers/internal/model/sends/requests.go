package sends

// The requests a send is given: where they are made, with which method,
// headers and host.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// RequestFact is exported for functions that return an HTTP request they
// made: its method and the headers set on it.
type RequestFact struct {
	Method string
	Keys   []string
	Given  []string
	Host   string // the URL's host when constant (Send.Host)
	// MethodParam, when Method is not a constant, is 1 + the index of
	// the parameter the method comes from (`newRequest(ctx, method,
	// path)`): a caller's constant argument gives it.
	MethodParam int
}

func (*RequestFact) AFact() {}

func (f *RequestFact) String() string {
	if f.Method == "" && f.MethodParam > 0 {
		return fmt.Sprintf("request(param %d)", f.MethodParam-1)
	}
	return "request(" + f.Method + ")"
}

// constString returns the constant string e holds: its first constant
// origin, through the header-name and case functions.
func (m *layer) constString(e ast.Expr) (string, bool) {
	// http.CanonicalHeaderKey("idempotency-key"), strings.ToUpper("post")
	if c, ok := analysisutil.Unparen(e).(*ast.CallExpr); ok && len(c.Args) == 1 {
		fn := analysisutil.Callee(m.pass.TypesInfo, c)
		if s, ok := m.constString(c.Args[0]); ok && fn != nil {
			switch {
			case analysisutil.IsFunc(fn, "net/http", "CanonicalHeaderKey"), analysisutil.IsFunc(fn, "net/textproto", "CanonicalMIMEHeaderKey"):
				return http.CanonicalHeaderKey(s), true
			case analysisutil.IsFunc(fn, "strings", "ToUpper"):
				return strings.ToUpper(s), true
			case analysisutil.IsFunc(fn, "strings", "ToLower"):
				return strings.ToLower(s), true
			}
		}
	}
	for _, o := range m.vals.Trace(e) {
		if tv := m.pass.TypesInfo.Types[o.Expr]; tv.Value != nil && tv.Value.Kind() == constant.String {
			return constant.StringVal(tv.Value), true
		}
	}
	if tv := m.pass.TypesInfo.Types[e]; tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	return "", false
}

// methodString returns the HTTP method e holds when every value it may
// hold is the same constant: a method read from a field that the package
// sets to different methods in different places (a generic request
// struct's Method, followed to every value it is given) is not known at
// this send, and neither is one chosen between constants on the way.
func (m *layer) methodString(e ast.Expr) (string, bool) {
	if c, ok := analysisutil.Unparen(e).(*ast.CallExpr); ok && len(c.Args) == 1 {
		return m.constString(e) // strings.ToUpper("post")
	}
	if tv := m.pass.TypesInfo.Types[e]; tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	method := ""
	for _, o := range m.vals.Trace(e) {
		tv := m.pass.TypesInfo.Types[o.Expr]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", false
		}
		v := strings.ToUpper(constant.StringVal(tv.Value))
		if method != "" && v != method {
			return "", false
		}
		method = v
	}
	return method, method != ""
}

// request fills in the method and headers of the request expression e.
func (m *layer) request(s *Send, e ast.Expr) {
	methods := map[string]bool{}
	unknown := false
	hosts := map[string]bool{}
	var methodExprs []ast.Expr
	for _, o := range m.vals.Trace(e) {
		method, ok := "", false
		host := ""
		switch x := analysisutil.Unparen(o.Expr).(type) {
		case *ast.CallExpr:
			fn := analysisutil.Callee(m.pass.TypesInfo, x)
			if fn == nil {
				break
			}
			if row := catalogRow(fn); row != nil && row.Role == catalog.RequestBuilder && row.ValueArg < len(x.Args) {
				s.Build = x
				arg := x.Args[row.ValueArg]
				if o.Call != nil {
					// Built in a helper of the package, followed into
					// (c.newRequest(ctx, http.MethodPost, path)): a method
					// that is the helper's parameter is the call's
					// argument.
					if h := analysisutil.Callee(m.pass.TypesInfo, o.Call); h != nil {
						if i := analysisutil.ParamIndex(m.pass.TypesInfo, h, arg); i >= 0 && i < len(o.Call.Args) {
							arg = o.Call.Args[i]
						}
					}
				}
				method, ok = m.methodString(arg)
				if !ok {
					methodExprs = append(methodExprs, arg)
				}
				if row.ValueArg+1 < len(x.Args) {
					host = m.urlHost(x.Args[row.ValueArg+1], 0)
				}
				break
			}
			if rf := m.requestOf(fn); rf != nil {
				{
					method, ok = rf.Method, rf.Method != ""
					if !ok && rf.MethodParam > 0 && rf.MethodParam <= len(x.Args) {
						// c.newRequest(ctx, http.MethodPost, path): the
						// builder's method is this call's argument.
						a := x.Args[rf.MethodParam-1]
						method, ok = m.methodString(a)
						if !ok {
							methodExprs = append(methodExprs, a)
						}
					}
					s.Build = x // made by the builder's call
					host = rf.Host
					for _, k := range rf.Keys {
						s.Headers = append(s.Headers, HeaderWrite{Name: k, Made: true, Pos: x.Pos()})
					}
					for _, k := range rf.Given {
						s.Headers = append(s.Headers, HeaderWrite{Name: k, Pos: x.Pos()})
					}
				}
			}
		case *ast.Ident:
			if tv, ok := m.pass.TypesInfo.Types[x]; ok && tv.IsNil() {
				continue // `return nil, err`: no request to send
			}
		case *ast.CompositeLit:
			if v, found := provenance.LitField(x, "Method"); found {
				method, ok = m.methodString(v)
			} else {
				method, ok = http.MethodGet, true
			}
		}
		if w := m.vals.LastWrite(o.Via, "Method"); w != nil {
			method, ok = m.methodString(w.Value)
		}
		if ok {
			methods[strings.ToUpper(method)] = true
		} else {
			unknown = true
		}
		hosts[host] = true
		for _, obj := range o.Via {
			for _, h := range m.headers[obj] {
				if h.Dynamic && s.Call != nil && h.Pos > s.Call.Pos() && m.sameDecl(h.Pos, s.Call.Pos()) {
					continue // handed to a hook after it was sent
				}
				s.Headers = append(s.Headers, m.expand([]HeaderWrite{h}, 0)...)
			}
		}
	}
	// One host known for every origin of the request.
	s.Host = ""
	if len(hosts) == 1 {
		for h := range hosts {
			s.Host = h
		}
	}
	if len(methodExprs) == 1 && len(methods) == 0 {
		s.MethodExpr = methodExprs[0]
	}
	// The worst case: a non-idempotent method if any origin has one.
	s.Method = ""
	if !unknown {
		var ms []string
		for k := range methods {
			ms = append(ms, k)
		}
		sort.Strings(ms)
		for _, k := range ms {
			s.Method = k
			if !IdempotentMethod(k) {
				break
			}
		}
	}
}

// requestOf returns what fn, a function returning a request, says of it:
// its fact, or for a function of this package, its summary (memoized;
// a builder that calls itself is none).
func (m *layer) requestOf(fn *types.Func) *RequestFact {
	fn = fn.Origin()
	if fn.Pkg() != m.pass.Pkg {
		var rf RequestFact
		if fn.Pkg() != nil && m.pass.ImportObjectFact(fn, &rf) {
			return &rf
		}
		return nil
	}
	if f, ok := m.requests[fn]; ok {
		return f
	}
	m.requests[fn] = nil // a builder reached again while summarized
	d := m.vals.Decls[fn]
	if d == nil || d.Body == nil {
		return nil
	}
	f := m.requestFact(fn, d)
	m.requests[fn] = f
	return f
}

// requestFacts exports RequestFacts for functions returning requests.
func (m *layer) requestFact(fn *types.Func, d *ast.FuncDecl) *RequestFact {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 {
		return nil
	}
	t := sig.Results().At(0).Type()
	if !analysisutil.IsNamedType(t, "net/http", "Request") && !analysisutil.IsNamedType(t, catalog.RetryableHTTP, "Request") {
		return nil
	}
	var f *RequestFact
	ast.Inspect(d.Body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) == 0 || f != nil {
			return f == nil
		}
		s := &Send{}
		m.request(s, ret.Results[0])
		if s.Build == nil {
			return true
		}
		f = &RequestFact{Method: s.Method, Host: s.Host}
		if s.Method == "" && s.MethodExpr != nil {
			if i := analysisutil.ParamIndex(m.pass.TypesInfo, fn, s.MethodExpr); i >= 0 {
				f.MethodParam = i + 1
			}
		}
		f.Keys, f.Given = m.keyNames(s.Headers, d.Body)
		return false
	})
	return f
}

// urlHost returns the host of a URL expression when the model can read
// it: a constant URL, or a sum whose constant leftmost part holds the
// whole host ("http://pay.shop:8080/" + id, not "http://pay" + region).
func (m *layer) urlHost(e ast.Expr, depth int) string {
	if depth > 8 {
		return ""
	}
	s, ok := m.constString(e)
	if !ok {
		if b, isSum := analysisutil.Unparen(e).(*ast.BinaryExpr); isSum && b.Op == token.ADD {
			if prefix, ok := m.constString(b.X); ok {
				_, rest, found := strings.Cut(prefix, "://")
				if !found || !strings.ContainsAny(rest, "/?#") {
					return "" // the host may go on in the next operand
				}
				s = prefix
			} else {
				return m.urlHost(b.X, depth+1)
			}
		} else {
			return ""
		}
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// sameDecl reports whether a and b lie in one top-level declaration.
func (m *layer) sameDecl(a, b token.Pos) bool {
	for _, f := range m.pass.Files {
		if a < f.FileStart || a >= f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if d.Pos() <= a && a < d.End() {
				return d.Pos() <= b && b < d.End()
			}
		}
	}
	return false
}
