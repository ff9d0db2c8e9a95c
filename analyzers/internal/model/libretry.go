package model

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// findCallRetry recognizes a catalogued retry call.
func (m *builder) findCallRetry(call *ast.CallExpr) {
	info := m.pass.TypesInfo
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return
	}
	if h := m.helperOf(fn); h != nil {
		m.helperCall(call, fn, h)
		return
	}
	row := catalogRow(fn)
	if row == nil {
		return
	}
	r := &Retry{Node: call, Pos: call.Fun.Pos(), End: call.Fun.End(), Row: row}
	switch row.Role {
	case catalog.Retry:
		r.Kind = LibraryRetry
		if row.Recv == "Executor" {
			// failsafe-go: a retry only if the executor has a retry policy.
			sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return
			}
			policies, _ := m.executorPolicies(sel.X, 0)
			var bs []bound
			for _, p := range policies {
				if m.isRetryPolicy(p) {
					bs = append(bs, m.boundDepth(p, 0))
				}
			}
			if len(bs) == 0 {
				return
			}
			b := combine(bs)
			if len(bs) > 1 && b.set && b.attempts > 0 {
				// Retry policies composed in one executor multiply.
				n := int64(1)
				for _, x := range bs {
					n = mul(n, x.attempts)
				}
				b.attempts = n
			}
			r.Attempts = b.attempts
		} else {
			b := m.siteBound(call, row)
			if b.set && b.attempts == 1 {
				return // configured not to retry (a call path without a retry policy)
			}
			r.Attempts = b.attempts
		}
		if row.OpArg < len(call.Args) {
			m.setOp(r, call.Args[row.OpArg])
			r.Specific = ownFailuresOnly(info, r, m.statusFields)
		}
	case catalog.RetrySend:
		r.Kind = ClientRetry
		b := m.siteBound(call, row)
		if b.set && b.attempts == 1 {
			return // RetryMax 0: the client does not retry
		}
		r.Attempts = b.attempts
	case catalog.Send:
		// net/http: retries only through a retryablehttp StandardClient.
		sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return
		}
		var bs []bound
		var through *catalog.Row
		for _, o := range m.vals.Trace(sel.X) {
			c, ok := analysisutil.Unparen(o.Expr).(*ast.CallExpr)
			if !ok {
				continue
			}
			if cf := analysisutil.Callee(info, c); cf != nil {
				if cr := catalogRow(cf); cr != nil && cr.Role == catalog.RetryingClient {
					through = cr
					bs = append(bs, m.innerBound(c, cr, 0))
				}
			}
		}
		if through == nil {
			return
		}
		b := combine(bs)
		if b.set && b.attempts == 1 {
			return
		}
		r.Kind = ClientRetry
		r.Attempts = b.attempts
		r.Through = through.Lib
		r.Row = &catalog.Row{Path: row.Path, Recv: row.Recv, Name: row.Name, Role: row.Role, Lib: row.Lib, Disable: through.Disable}
	default:
		return
	}
	m.add(r)
}

// setOp records the operation argument of a library retry.
func (m *builder) setOp(r *Retry, arg ast.Expr) {
	info := m.pass.TypesInfo
	for _, o := range m.vals.Trace(arg) {
		switch x := analysisutil.Unparen(o.Expr).(type) {
		case *ast.FuncLit:
			r.Ops = append(r.Ops, x.Body)
		case *ast.Ident:
			if fn, ok := info.Uses[x].(*types.Func); ok {
				r.OpFuncs = append(r.OpFuncs, fn.Origin())
			}
		case *ast.SelectorExpr:
			if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
				r.OpFuncs = append(r.OpFuncs, fn.Origin())
			}
		case *ast.IndexExpr:
			if fn, ok := funcOfExpr(info, x.X); ok {
				r.OpFuncs = append(r.OpFuncs, fn)
			}
		}
	}
}

func funcOfExpr(info *types.Info, e ast.Expr) (*types.Func, bool) {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		fn, ok := info.Uses[x].(*types.Func)
		if ok {
			return fn.Origin(), true
		}
	case *ast.SelectorExpr:
		fn, ok := info.Uses[x.Sel].(*types.Func)
		if ok {
			return fn.Origin(), true
		}
	}
	return nil, false
}
