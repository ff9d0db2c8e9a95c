package waits

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// CtxCheckFact is exported for every function that checks whether the
// context it is given is done (ctx.Err(), ctx.Done(), ctx.Deadline(), or
// passing it to a function with this fact): a loop that calls it with its
// context (`if isHalt(ctx, err) { return err }`) is bounded by that
// context, as if it checked it itself.
type CtxCheckFact struct {
	// Param is the index of the context parameter.
	Param int
}

func (*CtxCheckFact) AFact() {}

func (f *CtxCheckFact) String() string { return "checksctx" }

// findCtxChecks computes the package's functions that check their context
// parameter and exports their facts.
func (m *Result) findCtxChecks() {
	m.ctxChecks = map[*types.Func]int{}
	info := m.pass.TypesInfo
	for round := 0; round < maxFactRounds; round++ {
		changed := false
		for fn, d := range m.vals.Decls {
			if _, done := m.ctxChecks[fn]; done || d.Body == nil {
				continue
			}
			params := fn.Type().(*types.Signature).Params()
			for i := range params.Len() {
				p := params.At(i)
				if !analysisutil.IsNamedType(p.Type(), "context", "Context") {
					continue
				}
				found := false
				ast.Inspect(d.Body, func(n ast.Node) bool {
					if _, ok := n.(*ast.FuncLit); ok || found {
						return false
					}
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					callee := analysisutil.Callee(info, call)
					if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok && IsCtxQuery(callee) {
						if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok && info.Uses[id] == p {
							found = true
						}
					}
					if !found && callee != nil && callee != fn && m.ChecksContext(callee, call) && passes(info, call, p) {
						found = true
					}
					return !found
				})
				if found {
					m.ctxChecks[fn] = i
					m.pass.ExportObjectFact(fn, &CtxCheckFact{Param: i})
					changed = true
					break
				}
			}
		}
		if !changed {
			break
		}
	}
}

func IsCtxQuery(fn *types.Func) bool {
	return analysisutil.IsMethod(fn, "context", "Context", "Done") || analysisutil.IsMethod(fn, "context", "Context", "Err") ||
		analysisutil.IsMethod(fn, "context", "Context", "Deadline")
}

// passes reports whether call passes the variable p as an argument.
func passes(info *types.Info, call *ast.CallExpr, p *types.Var) bool {
	for _, a := range call.Args {
		if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok && info.Uses[id] == p {
			return true
		}
	}
	return false
}

// checksContext reports whether call is a call of fn, a function that
// checks the context it is given, with a context argument there.
func (m *Result) ChecksContext(fn *types.Func, call *ast.CallExpr) bool {
	if fn == nil {
		return false
	}
	idx, ok := m.ctxChecks[fn]
	if row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil && row.Role == catalog.UntilDone {
		// sub.Receive(ctx, f): it returns, with nil, once ctx is done.
		idx, ok = row.ValueArg, true
	}
	if !ok && fn.Pkg() != nil && fn.Pkg() != m.pass.Pkg {
		var f CtxCheckFact
		if m.pass.ImportObjectFact(fn, &f) {
			idx, ok = f.Param, true
		}
	}
	if !ok || idx >= len(call.Args) {
		return false
	}
	tv, ok := m.pass.TypesInfo.Types[call.Args[idx]]
	return ok && analysisutil.IsNamedType(tv.Type, "context", "Context")
}
