package timeouts

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// checkedEachPass reports whether the hand-written retry loop r checks
// the context named scope on every pass and leaves when it is done: a
// statement of the loop's body itself (not inside a branch) that is such
// a check, with no continue of the loop before it — `select { case
// <-ctx.Done(): return ctx.Err(); default: }`, `if err := ctx.Err(); err
// != nil { return err }`, `if ctx.Err() != nil { break }`. A cancellation
// is then seen by the next pass at the latest: the wait under way ends,
// and no attempt follows. So is a loop whose condition requires the
// context not to be done (`for ctx.Err() == nil`, also as one operand of
// an &&): a continue goes through it too.
func (m *layer) checkedEachPass(r *model.Retry, scope string) bool {
	var body *ast.BlockStmt
	node := r.Node
	if l, ok := node.(*ast.LabeledStmt); ok {
		node = l.Stmt
	}
	switch loop := node.(type) {
	case *ast.ForStmt:
		if loop.Cond != nil && m.requiresLive(loop.Cond, scope) {
			return true
		}
		body = loop.Body
	case *ast.RangeStmt:
		body = loop.Body
	}
	if body == nil {
		return false
	}
	for _, st := range body.List {
		if m.leavesWhenDone(st, scope) {
			return !continuesBefore(body, st.Pos())
		}
	}
	return false
}

// continuesBefore reports whether body has a continue statement that
// ends before pos: a pass that takes it skips what follows.
func continuesBefore(body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= pos {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.CONTINUE {
			found = true
		}
		return true
	})
	return found
}

// leavesWhenDone reports whether st checks the context named scope and
// leaves the loop when it is done.
func (m *layer) leavesWhenDone(st ast.Stmt, scope string) bool {
	switch s := st.(type) {
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			if ch := analysisutil.CommRecv(cc.Comm); ch != nil && m.doneQuery(ch, scope) && analysisutil.LeavesLoop(cc.Body, true) {
				return true
			}
		}
	case *ast.IfStmt:
		// if ctx.Err() != nil { return }, if err := ctx.Err(); err != nil
		// { return err }
		be, ok := analysisutil.Unparen(s.Cond).(*ast.BinaryExpr)
		if !ok || be.Op != token.NEQ || !analysisutil.LeavesLoop(s.Body.List, false) {
			return false
		}
		info := m.pass.TypesInfo
		x := be.X
		if info.Types[x].IsNil() {
			x = be.Y
		} else if !info.Types[be.Y].IsNil() {
			return false
		}
		if m.errQuery(x, scope) {
			return true
		}
		id, ok := analysisutil.Unparen(x).(*ast.Ident)
		as, isAssign := s.Init.(*ast.AssignStmt)
		if !ok || !isAssign || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return false
		}
		lhs, ok := as.Lhs[0].(*ast.Ident)
		return ok && info.ObjectOf(lhs) == info.Uses[id] && m.errQuery(as.Rhs[0], scope)
	}
	return false
}

// requiresLive reports whether the condition cond is false once the
// context named scope is done: `scope.Err() == nil`, or an && of which one
// operand is.
func (m *layer) requiresLive(cond ast.Expr, scope string) bool {
	be, ok := analysisutil.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch be.Op {
	case token.LAND:
		return m.requiresLive(be.X, scope) || m.requiresLive(be.Y, scope)
	case token.EQL:
		info := m.pass.TypesInfo
		return m.errQuery(be.X, scope) && info.Types[be.Y].IsNil() ||
			m.errQuery(be.Y, scope) && info.Types[be.X].IsNil()
	}
	return false
}

// doneQuery reports whether e is scope.Done(), errQuery whether it is
// scope.Err(), for the context named scope.
func (m *layer) doneQuery(e ast.Expr, scope string) bool { return m.query(e, scope, "Done") }
func (m *layer) errQuery(e ast.Expr, scope string) bool  { return m.query(e, scope, "Err") }

func (m *layer) query(e ast.Expr, scope, method string) bool {
	call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if !analysisutil.IsMethod(fn, "context", "Context", method) {
		return false
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && types.ExprString(sel.X) == scope
}

// pause reports whether the wait d is a constant duration or a numeric
// field read as it is (`time.Sleep(ws.PollInterval)`): the same pause on
// every pass, not a delay computed from the attempts or from a response.
//
// A random draw up to such a pause (`retry.FullJitter(time.Second)`,
// what the backoff check's fix writes, `rand.N(d)`: waits.DrawBound) is
// one too: it never waits longer than the pause.
func (m *layer) pause(d *waits.Delay) bool {
	if d.Own || d.Dur == nil {
		return false
	}
	return m.pauseValue(d.Dur, 0)
}

func (m *layer) pauseValue(dur ast.Expr, depth int) bool {
	if _, ok := m.durationOf(dur); ok {
		return true
	}
	if b := m.waits.DrawBound(dur); b != nil && depth < 3 {
		return m.pauseValue(b, depth+1)
	}
	sel, ok := analysisutil.Unparen(dur).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := m.pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return false
	}
	b, ok := s.Obj().Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}
