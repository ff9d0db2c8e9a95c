package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// An attempt run in a goroutine: `go func() { errc <- op() }()`, then
// `err := <-errc` (or `case err := <-errc:` in a select) in the same
// function. The receive yields the outcome of op, as the call itself
// would: the loop around them can retry op. It is op's outcome only when
// nothing else sends on the channel and op's input does not change from
// one start to the next: every send on the channel is that one, in a
// closure with no parameters started by a go statement, and no variable
// op reads (other than the closure's own) is written after it is
// declared. A goroutine whose channel carries results of different
// inputs (a shard, an index the loop advances) is no attempt of one
// request.

// findAsyncOps returns, for the channel variables of body that carry the
// outcome of one operation run in a goroutine, that operation's call.
func (in *interp) findAsyncOps(body *ast.BlockStmt) map[types.Object]*ast.CallExpr {
	type send struct {
		call *ast.CallExpr // ch <- call, in a go func() { ... }() closure
		ok   bool
	}
	sends := map[types.Object][]send{}
	writes := map[types.Object]int{} // writes after the declaration
	var goLits []*ast.FuncLit        // closures started by `go func() {...}()`
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt:
			if lit, ok := analysisutil.Unparen(x.Call.Fun).(*ast.FuncLit); ok && len(x.Call.Args) == 0 && lit.Type.Params.NumFields() == 0 {
				goLits = append(goLits, lit)
			}
		case *ast.AssignStmt:
			if x.Tok != token.DEFINE {
				for _, l := range x.Lhs {
					if obj := in.objOf(l); obj != nil {
						writes[obj]++
					}
				}
			}
		case *ast.IncDecStmt:
			if obj := in.objOf(x.X); obj != nil {
				writes[obj]++
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				if obj := in.objOf(x.X); obj != nil {
					writes[obj]++
				}
			}
		case *ast.SendStmt:
			obj := in.objOf(x.Chan)
			if obj == nil {
				return true
			}
			call, _ := analysisutil.Unparen(x.Value).(*ast.CallExpr)
			sends[obj] = append(sends[obj], send{call: call})
		}
		return true
	})
	inGoLit := func(pos token.Pos) *ast.FuncLit {
		for _, lit := range goLits {
			if lit.Body.Pos() <= pos && pos < lit.Body.End() {
				return lit
			}
		}
		return nil
	}
	out := map[types.Object]*ast.CallExpr{}
	for ch, ss := range sends {
		v, ok := ch.(*types.Var)
		if !ok || !isLocal(v) || len(ss) != 1 || ss[0].call == nil {
			continue
		}
		ct, ok := v.Type().Underlying().(*types.Chan)
		if !ok || !analysisutil.IsErrorType(ct.Elem()) {
			continue
		}
		call := ss[0].call
		lit := inGoLit(call.Pos())
		if lit == nil || !in.isOp(call) || len(in.results(call)) != 1 {
			continue
		}
		same := true
		ast.Inspect(call, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if u, ok := in.info.Uses[id].(*types.Var); ok && isLocal(u) && !(lit.Pos() <= u.Pos() && u.Pos() < lit.End()) && writes[u] > 0 {
					same = false
				}
			}
			return same
		})
		if same {
			out[ch] = call
		}
	}
	return out
}

// asyncRecv returns the operation whose outcome e receives: `<-errc` of
// a channel findAsyncOps found.
func (in *interp) asyncRecv(e ast.Expr) *ast.CallExpr {
	u, ok := analysisutil.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	ct := in.info.TypeOf(u.X)
	if ct == nil {
		return nil
	}
	if t, ok := ct.Underlying().(*types.Chan); !ok || !analysisutil.IsErrorType(t.Elem()) {
		return nil
	}
	if in.asyncOps == nil && in.asyncBody != nil {
		in.asyncOps = in.findAsyncOps(in.asyncBody) // once per function, when a receive of errors needs it
	}
	if obj := in.objOf(u.X); obj != nil {
		return in.asyncOps[obj]
	}
	return nil
}

// bindRecv records, for `err := <-errc` (or `err = <-errc`), the outcome
// of the operation run in the goroutine; ok is false for other
// assignments.
func (in *interp) bindRecv(lhs, rhs []ast.Expr, s *state) (*state, bool) {
	if len(lhs) != 1 || len(rhs) != 1 {
		return s, false
	}
	call := in.asyncRecv(rhs[0])
	obj := in.objOf(lhs[0])
	if call == nil || obj == nil {
		return s, false
	}
	s = s.clone()
	in.startOp(s, call)
	s.overwrite(obj)
	s.setVal(obj, nil)
	s.setBoolDef(obj, nil)
	s.setSlot(slot{key: obj, op: call})
	return s, true
}
