package timeouts

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// requestToSend returns the *http.Request parameter that gives a
// function its only context when the function is no handler: it has no
// context.Context parameter and no http.ResponseWriter one. Such a
// request is one the caller hands over to be sent (a prepared template,
// a request to sign), its context whatever its maker gave it; nil
// otherwise.
func (m *layer) requestToSend(fnType *ast.FuncType) *types.Var {
	info := m.pass.TypesInfo
	var req *types.Var
	for _, f := range fnType.Params.List {
		for _, n := range f.Names {
			v, ok := info.Defs[n].(*types.Var)
			if !ok {
				continue
			}
			switch {
			case isContextType(v.Type()), analysisutil.IsNamedType(v.Type(), "net/http", "ResponseWriter"):
				return nil
			case req == nil && analysisutil.IsNamedType(v.Type(), "net/http", "Request"):
				req = v
			}
		}
	}
	return req
}

// reHomes reports whether the context.Background() at cur is given to
// req.Clone or req.WithContext of the request req, which the function
// was handed to send (requestToSend): the copy gets a context of the
// function's choosing in place of whatever the request's maker gave it,
// which is not known here to be any caller's. A Background given to any
// other call gives up the request's context all the same.
func (m *layer) reHomes(cur inspector.Cursor, req *types.Var) bool {
	if req == nil {
		return false
	}
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Args[0] != cur.Node() {
		return false
	}
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if !analysisutil.IsMethod(fn, "net/http", "Request", "Clone") && !analysisutil.IsMethod(fn, "net/http", "Request", "WithContext") {
		return false
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := analysisutil.Unparen(sel.X).(*ast.Ident)
	return ok && m.pass.TypesInfo.Uses[id] == req
}
