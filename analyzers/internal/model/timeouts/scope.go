package timeouts

// The context in scope of a function: the one its work should run under.

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// ctxInScope finds a context usable at pos in the function fn: a
// context.Context parameter, or r.Context() of an *http.Request.
func (m *layer) ctxInScope(fnType *ast.FuncType) string {
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

// receiverContext returns "r.Context()" for a method whose receiver r
// carries a request's context: its type, of this package, has a method
// Context() context.Context and one that gives a value another context
// and returns the type (`SetContext(ctx) *Request`, as an
// *http.Request's WithContext). The context is then the one its user set
// for this value's work; a client's Context() without such a method is
// its lifetime, set when it was made.
func (m *layer) receiverContext(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return ""
	}
	n := fd.Recv.List[0].Names[0]
	v, _ := m.pass.TypesInfo.Defs[n].(*types.Var)
	if v == nil || n.Name == "_" {
		return ""
	}
	obj, _, _ := types.LookupFieldOrMethod(v.Type(), true, m.pass.Pkg, catalog.ContextGetter)
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() != m.pass.Pkg {
		return ""
	}
	sig := fn.Signature()
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isContextType(sig.Results().At(0).Type()) {
		return ""
	}
	ms := types.NewMethodSet(v.Type())
	for i := range ms.Len() {
		if msig, ok := ms.At(i).Type().(*types.Signature); ok && rehomes(msig, v.Type()) {
			return n.Name + "." + catalog.ContextGetter + "()"
		}
	}
	return ""
}
