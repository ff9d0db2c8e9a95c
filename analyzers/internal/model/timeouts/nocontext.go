package timeouts

// Functions that take no context and do their work under none.

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// NoContextFact is exported for a function that is given no context
// (no context.Context or *http.Request parameter, no parameter or
// receiver of a type that carries one: carriesContext) and that makes,
// in its own body (not in a closure, a go or a defer statement), a call
// that takes no context where one would be in scope: a ContextLess call
// (a catalog row, a wrapper running its sibling under Background) or a
// call of a function with this fact. `func fetchStaple(url string)
// ([]byte, error) { resp, err := http.Get(url); ... }`. A caller that
// has a context cannot hand it on: the work keeps running after that
// caller has given up. Not counted: a call whose row is bounded by its
// receiver (a TLS handshake bounded by its connection's deadline, a
// dial by its net.Dialer's Timeout), which the caller may have set.
type NoContextFact struct {
	// The innermost call that takes no context, as written
	// ("http.Get"), where it is ("ocsp.go:193") and its package's path:
	// a function of another module may make it.
	Work, At, Pkg string
}

func (*NoContextFact) AFact() {}

func (f *NoContextFact) String() string { return fmt.Sprintf("nocontext(%s at %s)", f.Work, f.At) }

// noContextSummary returns the NoContextFact of fn, of this package or,
// through its fact, of another.
func (m *layer) noContextSummary(fn *types.Func) *NoContextFact {
	return provenance.Summarize(m.pass, m.vals, m.noContext, fn, func(fn *types.Func, d *ast.FuncDecl) *NoContextFact {
		if d.Body == nil || analysisutil.IsTestFile(m.pass, d.Pos()) || m.ctxInScope(d.Type) != "" || givenCarrier(fn) {
			return nil
		}
		body, ok := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root().FindByPos(d.Body.Pos(), d.Body.End())
		if !ok {
			return nil
		}
		var f *NoContextFact
		body.Inspect(nil, func(c inspector.Cursor) bool {
			if f != nil {
				return false
			}
			switch n := c.Node().(type) {
			case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
				return false
			case *ast.CallExpr:
				if boundByReceiver(m.pass.TypesInfo, n) || m.clientGiven(n, fn) {
					return true
				}
				if cl := m.contextLess(c, body, n, "ctx"); cl != nil {
					if fn := analysisutil.Callee(m.pass.TypesInfo, n); fn != nil && rehomable(m.pass.TypesInfo, fn) && !m.sentHere(c, body) {
						// A request made here and handed to calls the
						// model cannot tell send it (a signer's Sign).
						return true
					}
					if cl.Through != nil {
						f = cl.Through
						break
					}
					posn := m.pass.Fset.Position(n.Pos())
					f = &NoContextFact{Work: analysisutil.Text(m.pass, n.Fun), At: fmt.Sprintf("%s:%d", filepath.Base(posn.Filename), posn.Line), Pkg: m.pass.Pkg.Path()}
				}
			}
			return true
		})
		return f
	})
}

// givenCarrier reports whether fn's receiver or a parameter is of a type
// that carries a context (carriesContext): the function may run under
// that one (a request type's Execute, a session's methods).
func givenCarrier(fn *types.Func) bool {
	sig := fn.Signature()
	if r := sig.Recv(); r != nil && carriesContext(r.Type()) {
		return true
	}
	for i := range sig.Params().Len() {
		if carriesContext(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

// carriesContext reports whether a value of type t carries a context: t
// is a context, or a struct (or a pointer to one) with a field of a
// context type, or its method set has a method that returns a context
// (`Context() context.Context`) or that takes one and returns t (a
// request's WithContext, SetContext).
func carriesContext(t types.Type) bool {
	if isContextType(t) {
		return true
	}
	if st, ok := analysisutil.Deref(t).Underlying().(*types.Struct); ok {
		for f := range st.Fields() {
			if isContextType(f.Type()) {
				return true
			}
		}
	}
	for _, mt := range []types.Type{t, types.NewPointer(analysisutil.Deref(t))} {
		ms := types.NewMethodSet(mt)
		for i := range ms.Len() {
			sig, ok := ms.At(i).Type().(*types.Signature)
			if !ok {
				continue
			}
			for r := range sig.Results().Variables() {
				if isContextType(r.Type()) {
					return true
				}
			}
			if rehomes(sig, mt) {
				return true
			}
		}
	}
	return false
}

// boundByReceiver reports whether call is of a catalog ContextLess row
// bounded by its receiver (BoundArg -1: a net.Dialer's Timeout, a TLS
// connection's deadline).
func boundByReceiver(info *types.Info, call *ast.CallExpr) bool {
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return false
	}
	row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
	return row != nil && row.Role == catalog.ContextLess && row.Bounded && row.BoundArg < 0
}

// sentHere reports whether the request made at cur and kept in a local
// is sent by the function: given as the request of a catalog Send or
// RetrySend row (http.Client.Do).
func (m *layer) sentHere(cur, body inspector.Cursor) bool {
	info := m.pass.TypesInfo
	_, v := m.keptIn(cur)
	if v == nil {
		return false
	}
	sent := false
	body.Inspect([]ast.Node{(*ast.CallExpr)(nil)}, func(c inspector.Cursor) bool {
		call := c.Node().(*ast.CallExpr)
		fn := analysisutil.Callee(info, call)
		if fn == nil || sent {
			return !sent
		}
		row := catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
		if row == nil || row.Role != catalog.Send && row.Role != catalog.RetrySend || row.ReqArg < 0 || row.ReqArg >= len(call.Args) {
			return true
		}
		if id, ok := analysisutil.Unparen(call.Args[row.ReqArg]).(*ast.Ident); ok && info.Uses[id] == v {
			sent = true
		}
		return !sent
	})
	return sent
}

// clientGiven reports whether call is a request sent by a method of an
// *http.Client that fn was given (a parameter's): its caller may have
// bounded it with a Timeout (clientBounded), as it may a dialer.
func (m *layer) clientGiven(call *ast.CallExpr, fn *types.Func) bool {
	callee := analysisutil.Callee(m.pass.TypesInfo, call)
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if callee == nil || !ok || !analysisutil.IsMethod(callee, "net/http", "Client", callee.Name()) {
		return false
	}
	params := fn.Signature().Params()
	for _, o := range m.vals.Trace(sel.X) {
		id, ok := analysisutil.Unparen(o.Expr).(*ast.Ident)
		if !ok {
			continue
		}
		for p := range params.Variables() {
			if m.pass.TypesInfo.Uses[id] == p {
				return true
			}
		}
	}
	return false
}
