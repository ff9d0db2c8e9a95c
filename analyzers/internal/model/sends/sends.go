package sends

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"net/http"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// HeaderWrite is a header set on a request. One whose Name is empty is
// open: the headers come from a header set (From: an http.Header or a map
// of names to values) or under a name (NameExpr) that the model cannot
// read here — a parameter, whose caller knows them, or a value it cannot
// follow.
type HeaderWrite struct {
	Name     string    // canonical header name
	Value    ast.Expr  // the value, when set in this package
	From     ast.Expr  // open: the header set whose entries are set
	NameExpr ast.Expr  // open: the name that is not a constant
	Pos      token.Pos // where it is set
	Made     bool      // set by a function of another package that makes the value itself
	// PerAttempt: the value is made anew in every attempt of the retry
	// the send is in (a new key per attempt).
	PerAttempt bool
	// Dynamic: an open write by a function value or an interface method
	// given the request at Pos: it counts for sends after Pos only.
	Dynamic bool
}

// Send is an HTTP request sent inside a retry.
type Send struct {
	Call     *ast.CallExpr // the send (Client.Do, http.Post, ...), or the call of a function that sends
	Pos, End token.Pos
	Lib      string // "http.Client.Do", "retryablehttp.Client.Post"
	// Method is the request's method when it is a constant ("POST");
	// empty when it is not known.
	Method string
	// MethodExpr is the expression that gives the method when it is not
	// a constant and comes from one place (the builder's argument, or the
	// argument of a helper's method parameter): a parameter there makes
	// the function's SendFact carry MethodParam.
	MethodExpr ast.Expr
	// Build is where the request was made (http.NewRequest...), when it
	// was made in this package.
	Build   *ast.CallExpr
	Headers []HeaderWrite
	// KeyByTransport: the client's transport adds idempotency keys.
	KeyByTransport bool
	// Host is the host of the request's URL when it is a constant, or a
	// constant prefix that ends the host ("http://pay.shop:8080/" + id);
	// empty when it is not known.
	Host string
	// Callee and Fact are set when the send happens in a called function.
	Callee *types.Func
	Fact   *SendFact
}

// OpenHeaders reports whether some headers of the request come from where
// the model cannot read them here (a parameter, a field, a call's
// result): whether the request carries a key is not known.
func (s *Send) OpenHeaders() bool {
	for _, h := range s.Headers {
		if h.Name == "" {
			return true
		}
	}
	return false
}

// HeaderName is a header set under a name that is a parameter.
type HeaderName struct {
	Name  int // the index of the parameter that names the header
	Value int // the index of the parameter given as its value, or -1
}

// SendFact is exported for functions that send an HTTP request whose
// method is not known to be idempotent.
type SendFact struct {
	Method string   // "" when not a constant
	Site   string   // "http.Client.Do at pay.go:31"
	Keys   []string // canonical names of the headers it sets with a value it makes itself
	Given  []string // canonical names of the headers it sets with a value it is given
	Host   string   // the URL's host when constant (Send.Host)
	// MethodParam, when Method is not a constant, is 1 + the index of
	// the parameter the method comes from (0: none): a caller that gives
	// a constant knows the method.
	MethodParam int
	// Headers set on the request that come from the caller: the indexes
	// of the parameters whose headers (an http.Header, a map of names to
	// values) are set (HeaderSets), the headers set under a name that is
	// a parameter (HeaderNames). HeadersUnknown: some come from where the
	// model cannot read them (a field, a call's result), so a caller
	// cannot tell that the key is missing.
	HeaderSets     []int
	HeaderNames    []HeaderName
	HeadersUnknown bool
	// Retry, when the request is sent inside the function's own retry and
	// its method or headers come from the caller (MethodParam,
	// HeaderSets, HeaderNames), describes that retry ("retry loop at
	// client.go:40"), with its attempts (0: not a constant): the caller,
	// where they are known, is where the retried request is judged.
	Retry         string
	RetryAttempts int64
}

func (*SendFact) AFact() {}

// Undecided reports whether what the request needs is decided by the
// caller: its method or some of its headers come from parameters.
func (f *SendFact) Undecided() bool {
	return f.Method == "" && f.MethodParam > 0 || len(f.HeaderSets) > 0 || len(f.HeaderNames) > 0
}

func (f *SendFact) String() string {
	m := f.Method
	if m == "" {
		m = "?"
		if f.MethodParam > 0 {
			m = fmt.Sprintf("param %d", f.MethodParam-1)
		}
	}
	for _, i := range f.HeaderSets {
		m += fmt.Sprintf("; headers of param %d", i)
	}
	for _, h := range f.HeaderNames {
		m += fmt.Sprintf("; header named by param %d", h.Name)
	}
	if f.HeadersUnknown {
		m += "; headers unknown"
	}
	if f.Retry != "" {
		m += "; in its " + f.Retry
	}
	return "sends(" + m + ")"
}

// IdempotentMethod reports whether m is one of the methods HTTP defines
// as idempotent.
func IdempotentMethod(m string) bool {
	switch strings.ToUpper(m) {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

// sendOf recognizes an HTTP send and what is known of its request.
func (m *layer) sendOf(call *ast.CallExpr) *Send {
	info := m.pass.TypesInfo
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return nil
	}
	row := catalogRow(fn)
	if row == nil || (row.Role != catalog.Send && row.Role != catalog.RetrySend) {
		return nil
	}
	s := &Send{Call: call, Pos: call.Fun.Pos(), End: call.Fun.End(), Lib: row.Lib, Method: row.Method}
	if row.Method == "" && row.ReqArg < len(call.Args) {
		m.request(s, call.Args[row.ReqArg])
	}
	if row.Method != "" {
		// http.Get(url), client.Post(url, ...): the first string argument.
		for _, a := range call.Args {
			if t, ok := m.pass.TypesInfo.TypeOf(a).(*types.Basic); ok && t.Kind() == types.String {
				s.Host = m.urlHost(a, 0)
				break
			}
		}
	}
	if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok && row.Recv != "" {
		s.KeyByTransport = m.keyTransport(sel.X, 0)
	}
	return s
}

// keyTransport reports whether a client's transport adds idempotency keys.
func (m *layer) keyTransport(client ast.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	info := m.pass.TypesInfo
	isKeyTransport := func(e ast.Expr) bool {
		for _, o := range m.vals.Trace(e) {
			t := info.TypeOf(o.Expr)
			for i := range catalog.Rows {
				r := &catalog.Rows[i]
				if r.Role == catalog.KeyTransport && analysisutil.IsNamedType(t, r.Path, r.Name) {
					return true
				}
			}
		}
		return false
	}
	for _, o := range m.vals.Trace(client) {
		if w := m.vals.LastWrite(o.Via, "Transport"); w != nil && isKeyTransport(w.Value) {
			return true
		}
		if w := m.vals.LastWrite(o.Via, "HTTPClient"); w != nil && m.keyTransport(w.Value, depth+1) {
			return true
		}
		lit, ok := analysisutil.Unparen(o.Expr).(*ast.CompositeLit)
		if !ok {
			continue
		}
		if v, ok := provenance.LitField(lit, "Transport"); ok && isKeyTransport(v) {
			return true
		}
		if v, ok := provenance.LitField(lit, "HTTPClient"); ok && m.keyTransport(v, depth+1) {
			return true
		}
	}
	return false
}

// sendsIn lists the sends reached from root: direct sends, and calls of
// functions that send.
func (m *layer) sendsIn(root ast.Node) []*Send {
	info := m.pass.TypesInfo
	var out []*Send
	ast.Inspect(root, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			if m.res.Uncounted(x) {
				return false
			}
		case *ast.CallExpr:
			if s := m.sendOf(x); s != nil {
				out = append(out, s)
				return true
			}
			if fn := analysisutil.Callee(info, x); fn != nil {
				if f := m.sendSummary(fn); f != nil {
					s := &Send{Call: x, Pos: x.Pos(), End: x.Fun.End(), Lib: analysisutil.FuncName(fn, m.pass.Pkg), Method: f.Method, Callee: fn, Fact: f, Host: f.Host}
					if f.Method == "" && f.MethodParam > 0 && f.MethodParam <= len(x.Args) {
						// The helper sends with the method it is given:
						// the argument says which.
						a := x.Args[f.MethodParam-1]
						if method, ok := m.methodString(a); ok {
							s.Method = strings.ToUpper(method)
						} else {
							s.MethodExpr = a
						}
					}
					for _, k := range f.Keys {
						s.Headers = append(s.Headers, HeaderWrite{Name: k, Made: true, Pos: x.Pos()})
					}
					for _, k := range f.Given {
						s.Headers = append(s.Headers, HeaderWrite{Name: k, Pos: x.Pos()})
					}
					s.Headers = append(s.Headers, m.givenHeaders(f, x)...)
					out = append(out, s)
				}
			}
		}
		return true
	})
	return out
}

// sendSummary returns the SendFact of fn.
func (m *layer) sendSummary(fn *types.Func) *SendFact {
	return provenance.Summarize(m.pass, m.vals, m.summaries, fn, func(fn *types.Func, d *ast.FuncDecl) *SendFact {
		sends := m.sendsIn(d.Body)
		var f *SendFact
		for _, s := range sends {
			if s.Method != "" && IdempotentMethod(s.Method) || s.KeyByTransport {
				continue
			}
			f = &SendFact{Method: s.Method, Host: s.Host}
			if s.Method == "" && s.MethodExpr != nil {
				f.MethodParam = analysisutil.ParamIndex(m.pass.TypesInfo, fn, s.MethodExpr) + 1
			}
			m.openHeaders(f, fn, s.Headers)
			if f.Undecided() {
				if r := m.ownRetry(d, s); r != nil {
					f.Retry = fmt.Sprintf("%s at %s", r.Describe(), analysisutil.ShortPos(m.pass.Fset, r.Pos))
					f.RetryAttempts = r.Attempts
				} else if s.Fact != nil && s.Fact.Retry != "" {
					f.Retry, f.RetryAttempts = s.Fact.Retry, s.Fact.RetryAttempts
				}
			}
			if s.Fact != nil {
				f.Site = s.Fact.Site
			} else {
				f.Site = fmt.Sprintf("%s at %s", s.Lib, analysisutil.ShortPos(m.pass.Fset, s.Pos))
			}
			f.Keys, f.Given = m.keyNames(s.Headers, d.Body)
			break
		}
		return f
	})
}

// keyNames splits the headers set on a request into those whose value is
// made inside body (a key made per call) and those given from outside.
func (m *layer) keyNames(hs []HeaderWrite, body ast.Node) (made, given []string) {
	for _, h := range hs {
		if h.Name == "" {
			continue // open: in the fact's HeaderSets, HeaderNames
		}
		if h.Made || h.Value != nil && m.madeIn(h.Value, []ast.Node{body}) {
			made = append(made, h.Name)
		} else {
			given = append(given, h.Name)
		}
	}
	return made, given
}

// madeIn reports whether the value v is made (by a call) within the
// regions: directly, or through a local variable assigned there.
func (m *layer) madeIn(v ast.Expr, regions []ast.Node) bool {
	info := m.pass.TypesInfo
	inside := func(pos token.Pos) bool {
		for _, r := range regions {
			if r.Pos() <= pos && pos < r.End() {
				return true
			}
		}
		return false
	}
	// Follow local variables to their assignments, stopping at calls.
	var made func(e ast.Expr, cutoff token.Pos, depth int) bool
	made = func(e ast.Expr, cutoff token.Pos, depth int) bool {
		if depth > 8 {
			return false
		}
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.CallExpr:
			if tv := info.Types[x.Fun]; tv.IsType() && len(x.Args) == 1 {
				return made(x.Args[0], cutoff, depth+1)
			}
			return inside(x.Pos())
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				if made(el, cutoff, depth+1) {
					return true
				}
			}
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			if !ok || !provenance.IsLocal(v) {
				return false
			}
			var last *provenance.Assign
			for i, a := range m.vals.Assigns[v] {
				if a.Pos < cutoff && (last == nil || a.Pos > last.Pos) {
					last = &m.vals.Assigns[v][i]
				}
			}
			if last != nil && last.Value != nil {
				return made(last.Value, last.Pos, depth+1)
			}
		}
		return false
	}
	return made(v, v.Pos(), 0)
}

// findSends records the sends each retry's attempts make.
func (m *layer) findSends(r *model.Retry) []*Send {
	var out []*Send
	if r.Kind == model.ClientRetry {
		if call, ok := r.Node.(*ast.CallExpr); ok {
			if s := m.sendOf(call); s != nil {
				out = append(out, s)
			}
		}
		return out
	}
	for _, op := range r.Ops {
		for _, s := range m.sendsIn(op) {
			if r.Kind == model.LoopRetry && s.Call != nil && model.SentOnce(m.pass.TypesInfo, r, s.Call) {
				continue // made once, then the loop is left: not re-sent
			}
			out = append(out, s)
		}
	}
	for _, fn := range r.OpFuncs {
		if f := m.sendSummary(fn); f != nil {
			s := &Send{Pos: r.Pos, End: r.End, Lib: analysisutil.FuncName(fn, m.pass.Pkg), Method: f.Method, Callee: fn, Fact: f, Host: f.Host}
			for _, k := range f.Keys {
				s.Headers = append(s.Headers, HeaderWrite{Name: k, Made: true, Pos: r.Pos})
			}
			for _, k := range f.Given {
				s.Headers = append(s.Headers, HeaderWrite{Name: k, Pos: r.Pos})
			}
			if len(f.HeaderSets) > 0 || len(f.HeaderNames) > 0 || f.HeadersUnknown {
				// Given no arguments here: open.
				s.Headers = append(s.Headers, HeaderWrite{Pos: r.Pos})
			}
			out = append(out, s)
		}
	}
	for _, s := range out {
		for i := range s.Headers {
			s.Headers[i].PerAttempt = m.perAttempt(s.Headers[i], r)
		}
	}
	return out
}

// PerAttempt reports whether the header write's value is made anew in
// every attempt of r.
func (m *layer) perAttempt(h HeaderWrite, r *model.Retry) bool {
	if h.Made {
		return true
	}
	return h.Value != nil && m.madeIn(h.Value, r.Ops)
}

func catalogRow(fn *types.Func) *catalog.Row {
	return catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
}
