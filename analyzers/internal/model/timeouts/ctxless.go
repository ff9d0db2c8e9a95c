package timeouts

// Calls that take no context where the caller's is in scope.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// ContextLess is a call that does its work under no context (a dial, a
// TLS handshake, a query, a request made by http.NewRequest) where a
// context is in scope, and a variant of it takes one.
type ContextLess struct {
	Call    *ast.CallExpr
	InScope string // the context in scope: "ctx", "r.Context()"
	// WithCtx is the variant that takes a context first and the same
	// arguments after it ("QueryContext"; for a package function, a
	// method of a package variable: "DefaultResolver.LookupHost"), or ""
	// when there is none (the catalog row then says what to use).
	WithCtx string
	// Through is set when the call is of a function given no context
	// that makes such a call itself, or through another such function:
	// its NoContextFact, which names the innermost call.
	Through *NoContextFact
}

// BgWrapperFact is exported for a function or method that runs its
// sibling taking a context (catalog.CtxSuffixes, ctxSibling) under one
// that is never cancelled: `func (c *Client) Put(k string) error {
// return c.PutContext(context.Background(), k) }`. Calling it where a
// context is in scope drops that context. A function whose sibling is
// another implementation (a driver's Prepare beside a PrepareContext
// that watches the context by other means, a decoder whose context
// only reaches custom decoders) has no fact.
type BgWrapperFact struct {
	Sibling string // the sibling's name
}

func (*BgWrapperFact) AFact() {}

func (f *BgWrapperFact) String() string { return "bgwrapper(" + f.Sibling + ")" }

// bgWrapperSummary returns the BgWrapperFact of fn, a function of this
// package, or nil: its body calls its context sibling, given
// context.Background() or TODO() directly.
func (m *layer) bgWrapperSummary(fn *types.Func) *BgWrapperFact {
	d := m.vals.Decls[fn]
	sib := ctxSibling(fn)
	if d == nil || d.Body == nil || sib == nil {
		return nil
	}
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) > 0 {
			if callee := analysisutil.Callee(m.pass.TypesInfo, call); callee != nil && callee.Origin() == sib.Origin() {
				if bg, ok := analysisutil.Unparen(call.Args[0]).(*ast.CallExpr); ok && m.isContextFunc(bg, "Background", "TODO") {
					found = true
				}
			}
		}
		return !found
	})
	if !found {
		return nil
	}
	return &BgWrapperFact{Sibling: sib.Name()}
}

// bgWrapper returns the sibling fn wraps under a context never
// cancelled (BgWrapperFact), or "".
func (m *layer) bgWrapper(fn *types.Func) string {
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		if f := m.bgWrapperSummary(fn); f != nil {
			return f.Sibling
		}
		return ""
	}
	var f BgWrapperFact
	if m.pass.ImportObjectFact(fn, &f) {
		return f.Sibling
	}
	return ""
}

// contextLess returns the finding for call, a call that takes no
// context, in a function whose context is scope: a catalog ContextLess
// row of the standard library, or a function or method that runs its
// sibling taking a context under context.Background()
// (BgWrapperFact). A call given the context some other way (an option
// made from it: `List(repo, WithContext(ctx))`) drops nothing; a
// request or another value that carries a context and can be re-homed
// (a method of its type takes a context and returns that type:
// req.WithContext) counts only if the function hands it on as it is
// (requestDropped). nil otherwise.
func (m *layer) contextLess(cur, body inspector.Cursor, call *ast.CallExpr, scope string) *ContextLess {
	info := m.pass.TypesInfo
	fn := analysisutil.Callee(info, call)
	if fn == nil || m.givenContext(call) {
		return nil
	}
	var cl *ContextLess
	if m.lazyDial(call, fn) {
		return nil // it connects in the background: nothing waits to bound
	}
	if row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil && row.Role == catalog.ContextLess {
		if row.Bounded && m.ownBound(body, call, row.BoundArg) || m.hostDial(cur, call, fn) || m.clientBounded(call, fn) {
			return nil
		}
		cl = &ContextLess{Call: call, InScope: scope, WithCtx: row.WithCtx}
		if row.Via != "" && row.WithCtx != "" {
			cl.WithCtx = row.Via + "." + row.WithCtx
		}
	} else if sib := m.bgWrapper(fn); sib != "" {
		if m.workUnder(call, scope) {
			// breaker.Call(func() error { return c.Do(req) }): the
			// work given to the wrapper runs under the caller's
			// context; the Background only schedules it.
			return nil
		}
		cl = &ContextLess{Call: call, InScope: scope, WithCtx: sib}
	} else if f := m.noContextSummary(fn); f != nil {
		cl = &ContextLess{Call: call, InScope: scope, Through: f}
	} else {
		return nil
	}
	if rehomable(info, fn) && !m.requestDropped(cur, body) {
		return nil
	}
	return cl
}

// ownBound reports whether the dial call has a bound of its own, as a
// context.Background() given its own timeout has (ownLifetime): the
// timeout argument at arg (DialTimeout's) is no constant zero, or the
// net.Dialer there (-1: the receiver) is a literal, or a local holding
// one, with its Timeout or Deadline set. Such a dial drops the caller's
// cancellation only for as long as its own bound, which the code chose
// (a default dial kept beside a DialContext option). A TLS connection's
// handshake is bounded by the connection under it (tlsOverBound).
func (m *layer) ownBound(body inspector.Cursor, call *ast.CallExpr, arg int) bool {
	info := m.pass.TypesInfo
	var e ast.Expr
	switch {
	case arg < 0:
		sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		e = sel.X
	case arg < len(call.Args):
		e = call.Args[arg]
	default:
		return false
	}
	if analysisutil.IsNamedType(info.TypeOf(e), "time", "Duration") {
		tv := info.Types[e]
		return tv.Value == nil || constant.Sign(tv.Value) != 0
	}
	if analysisutil.IsNamedType(analysisutil.Deref(info.TypeOf(e)), "crypto/tls", "Conn") {
		return m.tlsOverBound(body, call, e)
	}
	if u, ok := analysisutil.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	for _, o := range m.vals.Trace(e) {
		lit, ok := analysisutil.Unparen(o.Expr).(*ast.CompositeLit)
		if u, isAddr := analysisutil.Unparen(o.Expr).(*ast.UnaryExpr); isAddr && u.Op == token.AND {
			lit, ok = analysisutil.Unparen(u.X).(*ast.CompositeLit)
		}
		if !ok || !analysisutil.IsNamedType(info.TypeOf(lit), "net", "Dialer") {
			continue
		}
		for _, f := range []string{"Timeout", "Deadline"} {
			if v, ok := provenance.LitField(lit, f); ok {
				if tv := info.Types[v]; tv.Value == nil || constant.Sign(tv.Value) != 0 {
					return true
				}
			}
			if m.vals.LastWrite(o.Via, f) != nil {
				return true
			}
		}
	}
	return false
}

// clientBounded reports whether call is a request sent by a method of an
// *http.Client (Get, Post...) that is, or is a local given only, a client
// literal whose Timeout is set to no constant zero. The request is then
// bounded by a timeout the code chose, as a dial given its own is
// (ownBound); a client the layer cannot see (http.DefaultClient, a
// parameter, a field) is not known to have one.
func (m *layer) clientBounded(call *ast.CallExpr, fn *types.Func) bool {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !analysisutil.IsMethod(fn, "net/http", "Client", fn.Name()) {
		return false
	}
	info := m.pass.TypesInfo
	return m.vals.Every(info, sel.X, func(e ast.Expr) bool {
		e = analysisutil.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = analysisutil.Unparen(u.X)
		}
		lit, ok := e.(*ast.CompositeLit)
		if !ok || !analysisutil.IsNamedType(info.TypeOf(lit), "net/http", "Client") {
			return false
		}
		v, ok := provenance.LitField(lit, "Timeout")
		if !ok {
			return false
		}
		tv := info.Types[v]
		return tv.Value == nil || constant.Sign(tv.Value) != 0
	})
}

// tlsOverBound reports whether the TLS connection conn, whose handshake
// is call, runs over a connection that bounds it: conn is made by
// tls.Client or tls.Server over a value of a type that is no interface
// and is declared outside the standard library (the code's own transport,
// which wraps the handshake in a protocol of its own and sets its own
// deadlines, as a database driver's prelogin does: the model cannot see
// them and stays silent), or a deadline is set on conn or on that value
// before the handshake (catalog.SetsReadDeadline: SetDeadline,
// SetReadDeadline of a net or tls connection). A handshake over a freshly dialed *net.TCPConn or a
// net.Conn with no deadline can wait forever, and is reported.
func (m *layer) tlsOverBound(body inspector.Cursor, call *ast.CallExpr, conn ast.Expr) bool {
	info := m.pass.TypesInfo
	objs := map[types.Object]bool{}
	if o := analysisutil.ReferredObject(info, conn); o != nil {
		objs[o] = true
	}
	for _, o := range m.vals.Trace(conn) {
		mk, ok := analysisutil.Unparen(o.Expr).(*ast.CallExpr)
		if !ok || len(mk.Args) == 0 {
			continue
		}
		fn := analysisutil.Callee(info, mk)
		if !analysisutil.IsFunc(fn, "crypto/tls", "Client") && !analysisutil.IsFunc(fn, "crypto/tls", "Server") {
			continue
		}
		under := mk.Args[0]
		if u, ok := analysisutil.Unparen(under).(*ast.UnaryExpr); ok && u.Op == token.AND {
			under = u.X
		}
		if ownTransport(info.TypeOf(under)) {
			return true
		}
		if obj := analysisutil.ReferredObject(info, under); obj != nil {
			objs[obj] = true
		}
		for _, uo := range m.vals.Trace(under) {
			if ownTransport(info.TypeOf(uo.Expr)) {
				return true
			}
		}
	}
	found := false
	body.Inspect([]ast.Node{(*ast.CallExpr)(nil)}, func(c inspector.Cursor) bool {
		dl := c.Node().(*ast.CallExpr)
		if found || dl.Pos() >= call.Pos() {
			return !found
		}
		fn := analysisutil.Callee(info, dl)
		sel, ok := analysisutil.Unparen(dl.Fun).(*ast.SelectorExpr)
		if fn == nil || !ok || !catalog.SetsReadDeadline(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()) {
			return true
		}
		if obj := analysisutil.ReferredObject(info, sel.X); obj != nil && objs[obj] {
			found = true
		}
		return !found
	})
	return found
}

// ownTransport reports whether t is a type of the code's own (or a
// library's) that a TLS connection may run over: no interface, no
// type of the standard library.
func ownTransport(t types.Type) bool {
	if t == nil || types.IsInterface(t) {
		return false
	}
	named, ok := analysisutil.Deref(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && !analysisutil.IsStd(named.Obj().Pkg().Path())
}

// hostDial reports whether call, a dial, stays on this host: the
// hostlocal layer says it dials a Unix-domain socket or a loopback
// address (hostlocal.Result.DialsHere), or its network argument is the
// expression a switch around the call tests, in a case of "unix..."
// constants only (`switch c.proto { case "unix": return
// net.Dial(c.proto, c.addr) }`). Such a dial (the local daemon's
// socket) is answered or refused at once.
func (m *layer) hostDial(cur inspector.Cursor, call *ast.CallExpr, fn *types.Func) bool {
	if m.hostlocal.DialsHere(call) {
		return true
	}
	info := m.pass.TypesInfo
	row := catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
	if row == nil || row.Role != catalog.HostLocalDial || row.ValueArg < 0 || row.ValueArg >= len(call.Args) {
		return false
	}
	network := call.Args[row.ValueArg]
	for c := cur.Parent(); c.Node() != nil; c = c.Parent() {
		cc, ok := c.Node().(*ast.CaseClause)
		if !ok {
			if _, isFn := c.Node().(*ast.FuncLit); isFn {
				return false
			}
			continue
		}
		sw, ok := c.Parent().Parent().Node().(*ast.SwitchStmt)
		if !ok || sw.Tag == nil || len(cc.List) == 0 || types.ExprString(sw.Tag) != types.ExprString(network) {
			continue
		}
		for _, v := range cc.List {
			if !analysisutil.UnixNetwork(info, v) {
				return false
			}
		}
		return true
	}
	return false
}

// givenContext reports whether an argument of call holds a context
// value or is made from one (`remote.WithContext(ctx)`, an options
// struct literal with a context field): the callee is given a context,
// if not as its first argument.
func (m *layer) givenContext(call *ast.CallExpr) bool {
	info := m.pass.TypesInfo
	found := false
	for _, a := range call.Args {
		ast.Inspect(a, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok && isContextType(info.TypeOf(e)) {
				found = true
			}
			return !found
		})
	}
	return found
}

// rehomable reports whether fn's first result carries a context that can
// be replaced: its type has a method that takes a context.Context and
// returns that same type (an *http.Request's WithContext, a
// retryablehttp request's).
func rehomable(info *types.Info, fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return false
	}
	t := sig.Results().At(0).Type()
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if msig, ok := ms.At(i).Type().(*types.Signature); ok && msig.Params().Len() == 1 && msig.Results().Len() == 1 && rehomes(msig, t) {
			return true
		}
	}
	return false
}

// rehomes reports whether a method of this signature gives a value of
// type t another context: it takes a context.Context first and returns
// a t first (req.WithContext(ctx), req.Clone(ctx)).
func rehomes(msig *types.Signature, t types.Type) bool {
	return msig.Params().Len() >= 1 && isContextType(msig.Params().At(0).Type()) && msig.Results().Len() >= 1 && types.Identical(msig.Results().At(0).Type(), t)
}

// ctxSibling returns the variant of fn that takes a context
// (catalog.CtxSuffixes): a function of the same package, or a method of
// the same receiver, whose parameters are a context.Context and then
// fn's (the WithContext form may add variadic options last), whose
// results are fn's, and which can fail (an error among them), so that
// the context's end can end it.
func ctxSibling(fn *types.Func) *types.Func {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	canFail := false
	for i := range sig.Results().Len() {
		if analysisutil.IsErrorType(sig.Results().At(i).Type()) {
			canFail = true
		}
	}
	if !canFail {
		return nil
	}
	for _, suffix := range catalog.CtxSuffixes {
		var obj types.Object
		if recv := sig.Recv(); recv != nil {
			obj, _, _ = types.LookupFieldOrMethod(recv.Type(), true, fn.Pkg(), fn.Name()+suffix)
		} else {
			obj = fn.Pkg().Scope().Lookup(fn.Name() + suffix)
		}
		sib, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		s2 := sib.Type().(*types.Signature)
		n := sig.Params().Len()
		extra := s2.Params().Len() - 1 - n
		if extra < 0 || extra > 1 || s2.Params().Len() == 0 || !isContextType(s2.Params().At(0).Type()) {
			continue
		}
		if extra == 1 && (sig.Variadic() || !s2.Variadic()) {
			continue // only trailing variadic options may be added
		}
		if extra == 0 && s2.Variadic() != sig.Variadic() {
			continue
		}
		same := types.Identical(s2.Results(), sig.Results())
		for i := 0; same && i < n; i++ {
			same = types.Identical(sig.Params().At(i).Type(), s2.Params().At(i+1).Type())
		}
		if same {
			return sib
		}
	}
	return nil
}

// keptIn returns the local variable the value of the call at cur is
// assigned to (req of `req, err := http.NewRequest(...)`), with its
// identifier there; nils when it is not kept so.
func (m *layer) keptIn(cur inspector.Cursor) (*ast.Ident, *types.Var) {
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) == 0 || len(as.Rhs) != 1 || as.Rhs[0] != cur.Node() {
		return nil, nil
	}
	return m.firstLocal(as)
}

// requestDropped reports whether the request made at cur (by
// http.NewRequest, or another call whose result can be re-homed), kept
// in a local variable, is handed on as it is: the function never
// re-homes it (req.WithContext, req.Clone: that is where its context
// comes from), never returns it (its caller chooses), and gives it to
// calls none of which is also given a context (a helper given both may
// re-home it: `c.do(ctx, req)`).
func (m *layer) requestDropped(cur, body inspector.Cursor) bool {
	info := m.pass.TypesInfo
	id, v := m.keptIn(cur)
	if v == nil {
		return false
	}
	given := false
	for c := range body.Preorder((*ast.Ident)(nil)) {
		x := c.Node().(*ast.Ident)
		if x == id || info.Uses[x] != v {
			continue
		}
		switch p := c.Parent().Node().(type) {
		case *ast.ReturnStmt:
			return false
		case *ast.SelectorExpr:
			// req.WithContext(ctx), req.Clone(ctx): re-homed (a method
			// given a context that returns the request's type).
			if f, ok := info.Uses[p.Sel].(*types.Func); ok && rehomes(f.Signature(), v.Type()) {
				return false
			}
		case *ast.CallExpr:
			if info.Types[p.Fun].IsType() {
				// (*Request)(req): the request kept under a type of the
				// code's own, which may be re-homed or returned later.
				return false
			}
			for _, a := range p.Args {
				if isContextType(info.TypeOf(a)) {
					return false
				}
			}
			given = true
		}
	}
	return given
}

// lazyDial reports whether call, of fn, is a dial that returns at once
// and connects in the background (a catalog LazyDial row: gRPC's Dial
// and DialContext): none of its options, listed from the row's
// BoundArg, is known to be a BlockingOption (WithBlock). Options the
// model cannot list count as not known to block: the model stays
// silent.
func (m *layer) lazyDial(call *ast.CallExpr, fn *types.Func) bool {
	row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
	if row == nil || row.Role != catalog.LazyDial {
		return false
	}
	opts, ok := m.vals.Spread(call, row.BoundArg)
	if !ok {
		return true
	}
	for _, o := range opts {
		for _, orig := range m.vals.Trace(o) {
			oc, ok := analysisutil.Unparen(orig.Expr).(*ast.CallExpr)
			if !ok {
				continue
			}
			if f := analysisutil.Callee(m.pass.TypesInfo, oc); f != nil {
				if r := catalog.LookupContext(analysisutil.PkgPath(f), analysisutil.RecvTypeName(f), f.Name()); r != nil && r.Role == catalog.BlockingOption {
					return false
				}
			}
		}
	}
	return true
}
