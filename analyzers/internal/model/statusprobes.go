package model

import (
	"go/ast"
	"go/constant"
	"go/types"
	"net/http"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// ProbeFact is exported for every function whose one result is an error
// and whose every operation only asks whether a dependency answers
// (probe): a readiness check (`func ready(c *http.Client, u string)
// error`, a GET whose status it tests; a wrapper of database/sql's Ping).
// A retry whose attempts call it is a probe too.
type ProbeFact struct{}

func (*ProbeFact) AFact() {}

func (*ProbeFact) String() string { return "probe" }

// findProbes computes the package's probe functions (one may call
// another) and exports their facts.
func (m *builder) findProbes() {
	m.probeFuncs = map[*types.Func]bool{}
	m.funcsWhere(m.probeFuncs, func(fn *types.Func, d *ast.FuncDecl) bool {
		res := fn.Type().(*types.Signature).Results()
		if res.Len() != 1 || !analysisutil.IsErrorType(res.At(0).Type()) {
			return false
		}
		return m.newInterp().probe([]ast.Node{d.Body})
	}, func() analysis.Fact { return &ProbeFact{} })
}

// asksCall reports whether call only asks whether a dependency answers:
// a catalog Probe row (database/sql's Ping) or a probe function
// (ProbeFact).
func (m *builder) asksCall(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return false
	}
	if row := catalogRow(fn); row != nil && row.Role == catalog.Probe {
		return true
	}
	return m.funcHas(fn, m.probeFuncs, new(ProbeFact))
}

// safeMethod reports whether an HTTP method asks for a resource's state
// and changes nothing ("" is GET's spelling in net/http).
func safeMethod(m string) bool {
	switch m {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return false
}

// safeRequest reports whether call builds an HTTP request (a catalog
// RequestBuilder row of net/http) of a constant safe method with no body
// (nil or http.NoBody).
func (in *interp) safeRequest(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(in.info, call)
	if fn == nil {
		return false
	}
	row := catalogRow(fn)
	if row == nil || row.Role != catalog.RequestBuilder || row.Path != catalog.NetHTTP || len(call.Args) != row.ValueArg+3 {
		return false
	}
	tv, ok := in.info.Types[call.Args[row.ValueArg]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String || !safeMethod(constant.StringVal(tv.Value)) {
		return false
	}
	body := call.Args[row.ValueArg+2]
	return isNilIdent(in.info, body) || analysisutil.IsPkgVar(analysisutil.ReferredObject(in.info, body), catalog.NetHTTP, "NoBody")
}

// statusSend reports whether call is a net/http send (a catalog Send row)
// of a safe method with no body: http.Get, Client.Head, or Client.Do — or
// any function of Do's signature (doer) — of a request the attempt (ops)
// declares and only ever builds so or derives from itself with another
// context (`req = req.WithContext(ctx)`).
func (in *interp) statusSend(call *ast.CallExpr, ops []ast.Node) bool {
	fn := analysisutil.Callee(in.info, call)
	if fn == nil {
		return false
	}
	reqArg := 0
	if row := catalogRow(fn); row != nil && row.Role == catalog.Send && row.Path == catalog.NetHTTP {
		if row.Method != "" {
			return safeMethod(row.Method)
		}
		reqArg = row.ReqArg
	} else if !doer(fn) {
		return false
	}
	if reqArg >= len(call.Args) {
		return false
	}
	id, ok := analysisutil.Unparen(call.Args[reqArg]).(*ast.Ident)
	if !ok {
		return false
	}
	req := asVar(in.info.Uses[id])
	if req == nil || !declaredIn(req, ops) {
		return false
	}
	built, safe := false, true
	for _, n := range ops {
		ast.Inspect(n, func(n ast.Node) bool {
			a, isAssign := n.(*ast.AssignStmt)
			if !isAssign || !safe {
				return safe
			}
			for i, l := range a.Lhs {
				switch l := analysisutil.Unparen(l).(type) {
				case *ast.Ident:
					if in.info.Defs[l] != req && in.info.Uses[l] != req {
						continue
					}
				case *ast.SelectorExpr:
					if x, isID := analysisutil.Unparen(l.X).(*ast.Ident); !isID || in.info.Uses[x] != req {
						continue
					}
					safe = false // req.Body = ..., req.Method = ...
					return false
				default:
					continue
				}
				rhs := a.Rhs[0]
				if len(a.Rhs) == len(a.Lhs) {
					rhs = a.Rhs[i]
				}
				c, isCall := analysisutil.Unparen(rhs).(*ast.CallExpr)
				switch {
				case isCall && i == 0 && in.safeRequest(c):
					built = true
				case isCall && in.derivesSelf(c, req):
				default:
					safe = false
					return false
				}
			}
			return true
		})
	}
	return built && safe
}

// derivesSelf reports whether call is req's own method that gives a copy
// of it with another context (a catalog ContextCarrier row:
// req.WithContext(ctx)).
func (in *interp) derivesSelf(call *ast.CallExpr, req *types.Var) bool {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := analysisutil.Unparen(sel.X).(*ast.Ident)
	if !ok || in.info.Uses[x] != req {
		return false
	}
	fn := analysisutil.Callee(in.info, call)
	if fn == nil {
		return false
	}
	row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
	return row != nil && row.Role == catalog.ContextCarrier
}

// bodyClosed returns the response variable when call closes the body of
// a status probe's response (`resp.Body.Close()`), nil otherwise.
func (in *interp) bodyClosed(call *ast.CallExpr, statuses map[*types.Var]bool) *ast.Ident {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) != 0 || !isCloser(in.info, sel) {
		return nil
	}
	body, ok := sel.X.(*ast.SelectorExpr)
	if !ok || body.Sel.Name != "Body" {
		return nil
	}
	id, ok := body.X.(*ast.Ident)
	if !ok || !statuses[asVar(in.info.Uses[id])] {
		return nil
	}
	return id
}

// doer reports whether fn has the signature of a send of one request,
// `(*http.Request) (*http.Response, error)`: http.Client's Do, a client
// interface's (a Doer), a RoundTripper's RoundTrip.
func doer(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 2 {
		return false
	}
	req, ok := sig.Params().At(0).Type().(*types.Pointer)
	resp, ok2 := sig.Results().At(0).Type().(*types.Pointer)
	return ok && ok2 && analysisutil.IsNamedType(req.Elem(), catalog.NetHTTP, "Request") &&
		analysisutil.IsNamedType(resp.Elem(), catalog.NetHTTP, "Response") && analysisutil.IsErrorType(sig.Results().At(1).Type())
}
