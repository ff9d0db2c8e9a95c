package waits

// The duration parameters of a wait function that bound it as a timeout
// (WaitFact.Timeouts), not the pause it makes.

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// findTimeoutParams computes, for each wait function of the package, its
// duration parameters that bound the wait as a timeout (timeoutParams).
func (m *Result) findTimeoutParams() {
	m.timeouts = map[*types.Func][]int{}
	for fn := range m.WaitFuncs {
		if d := m.vals.Decls[fn]; d != nil && d.Body != nil {
			if ps := m.timeoutParams(fn.Signature(), d.Body); len(ps) > 0 {
				m.timeouts[fn] = ps
			}
		}
	}
}

// TimeoutParams returns the indices of the duration parameters of the
// wait function fn (of this package, or of another by its WaitFact) that
// bound its wait as a timeout: given one, the function waits for
// something else (a gate to open, a signal), and fails when that
// duration passes first. Such a duration is no pause between attempts.
func (m *Result) TimeoutParams(fn *types.Func) []int {
	if ps, ok := m.timeouts[fn]; ok {
		return ps
	}
	if f := m.ImportedWait(fn); f != nil {
		return f.Timeouts
	}
	return nil
}

// timeoutParams returns the indices of the duration parameters whose
// every use is the duration of a timer received in a select case that
// fails — returns a non-nil error other than the context's (`case
// <-time.After(budget): return errTimeout`) — or of a context deadline
// (`context.WithTimeout(ctx, budget)`).
func (m *Result) timeoutParams(sig *types.Signature, body *ast.BlockStmt) []int {
	info := m.pass.TypesInfo
	var out []int
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		if !analysisutil.IsNamedType(p.Type(), "time", "Duration") {
			continue
		}
		uses, bounding := 0, 0
		ast.Inspect(body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Ident:
				if info.Uses[x] == p {
					uses++
				}
			case *ast.CommClause:
				if m.failsOnTimer(x, p) {
					bounding++
				}
			case *ast.CallExpr:
				fn := analysisutil.Callee(info, x)
				if (analysisutil.IsFunc(fn, "context", "WithTimeout") || analysisutil.IsFunc(fn, "context", "WithTimeoutCause")) && len(x.Args) >= 2 && analysisutil.ReferredObject(info, x.Args[1]) == types.Object(p) {
					bounding++
				}
			}
			return true
		})
		if uses > 0 && uses == bounding {
			out = append(out, i)
		}
	}
	return out
}

// failsOnTimer reports whether cc receives from time.After(p) and its
// body ends by returning a non-nil error other than the context's.
func (m *Result) failsOnTimer(cc *ast.CommClause, p *types.Var) bool {
	info := m.pass.TypesInfo
	ch := analysisutil.CommRecv(cc.Comm)
	call, ok := analysisutil.Unparen(ch).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || TimeFunc(analysisutil.Callee(info, call)) != "After" || analysisutil.ReferredObject(info, call.Args[0]) != types.Object(p) {
		return false
	}
	if len(cc.Body) == 0 {
		return false
	}
	ret, ok := cc.Body[len(cc.Body)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	last := ret.Results[len(ret.Results)-1]
	if !analysisutil.IsErrorType(info.TypeOf(last)) || info.Types[last].IsNil() {
		return false
	}
	// return ctx.Err(): the caller's context, not this wait's timeout.
	if c, ok := analysisutil.Unparen(last).(*ast.CallExpr); ok && analysisutil.IsMethod(analysisutil.Callee(info, c), "context", "Context", "Err") {
		return false
	}
	return true
}
