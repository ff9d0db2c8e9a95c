package timeouts

// Calls that take no context where the caller's is in scope.

import (
	"go/ast"
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
	// arguments after it ("QueryContext"): a fix calls it instead. Use,
	// when there is none, names what to use, for the message.
	WithCtx, Use string
}

// contextLess returns the finding for call, a call that takes no
// context, in a function whose context is scope: a catalog ContextLess
// row of the standard library, or a function or method with a sibling
// that takes a context (catalog.CtxSuffixes) and can fail. A request
// made by http.NewRequest counts only if the function sends it as it
// is (requestDropped). nil otherwise.
func (m *layer) contextLess(cur, body inspector.Cursor, call *ast.CallExpr, scope string) *ContextLess {
	info := m.pass.TypesInfo
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return nil
	}
	if row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil && row.Role == catalog.ContextLess {
		if analysisutil.IsFunc(fn, catalog.NetHTTP, "NewRequest") && !m.requestDropped(cur, body) {
			return nil
		}
		return &ContextLess{Call: call, InScope: scope, WithCtx: row.WithCtx, Use: row.CtxUse}
	}
	if path := analysisutil.PkgPath(fn); analysisutil.IsStd(path) && !catalog.CtxSiblingStd[path] {
		return nil // the standard library: its rows, and database/sql's siblings
	}
	if sib := ctxSibling(fn); sib != nil {
		return &ContextLess{Call: call, InScope: scope, WithCtx: sib.Name()}
	}
	return nil
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

// requestDropped reports whether the request http.NewRequest makes at
// cur, kept in a local variable, is handed on as it is: the function
// never re-homes it (req.WithContext, req.Clone: that is where its
// context comes from), never returns it (its caller chooses), and gives
// it to calls none of which is also given a context (a helper given
// both may re-home it: `c.do(ctx, req)`).
func (m *layer) requestDropped(cur, body inspector.Cursor) bool {
	info := m.pass.TypesInfo
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) == 0 || len(as.Rhs) != 1 || as.Rhs[0] != cur.Node() {
		return false
	}
	id, ok := analysisutil.Unparen(as.Lhs[0]).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || !provenance.IsLocal(v) {
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
			// req.WithContext(ctx), req.Clone(ctx): re-homed.
			if f, ok := info.Uses[p.Sel].(*types.Func); ok && (analysisutil.IsMethod(f, catalog.NetHTTP, "Request", "WithContext") || analysisutil.IsMethod(f, catalog.NetHTTP, "Request", "Clone")) {
				return false
			}
		case *ast.CallExpr:
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
