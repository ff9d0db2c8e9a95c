package model

// Events: loops that another goroutine wakes for every pass.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// eventPaced reports whether every pass of the loop stmt starts by
// waiting for another goroutine to signal it: its body opens with a
// receive, or a select with no default each of whose cases either
// returns or receives, dropping the value, from a channel kept outside
// the function (a field, a package variable or a parameter) that is no
// timer's (its elements are no time.Time) and that the loop never sends
// on itself. A loop so built goes round when the signal comes, not
// after a delay of its own: a failed attempt waits for the next signal
// (a flusher kicked by writers, a worker woken by a queue), and how
// often it runs is the sender's. It is no retry, and its own waits are
// no retry's delays.
func (m *builder) eventPaced(stmt ast.Stmt, label string) bool {
	fs, ok := stmt.(*ast.ForStmt)
	if !ok || len(fs.Body.List) == 0 {
		return false
	}
	if m.acceptsFirst(fs.Body.List[0]) || m.terminalPaced(fs.Body, label) {
		return true
	}
	var events []types.Object
	switch first := fs.Body.List[0].(type) {
	case *ast.ExprStmt:
		obj := m.eventRecv(first)
		if obj == nil {
			return false
		}
		events = append(events, obj)
	case *ast.SelectStmt:
		for _, c := range first.Body.List {
			cc := c.(*ast.CommClause)
			if cc.Comm == nil {
				return false // default: the select does not wait
			}
			if n := len(cc.Body); n > 0 {
				if _, ok := cc.Body[n-1].(*ast.ReturnStmt); ok {
					continue // case <-quit: return
				}
			}
			obj := m.eventRecv(cc.Comm)
			if obj == nil {
				return false
			}
			events = append(events, obj)
		}
	default:
		return false
	}
	if len(events) == 0 {
		return false
	}
	// kick <- struct{}{} in the loop itself: the loop wakes itself, and
	// the pace is its own (the waits before the send are its delays). A
	// send from a timer's callback or a helper paces the loop by waits the
	// model does not see as the loop's: judged, the loop would look as if
	// it went round at once. It stays a loop woken by a signal.
	wakesItself := false
	ast.Inspect(fs.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			wakesItself = slices.Contains(events, m.vals.ObjOf(x.Chan))
		}
		return !wakesItself
	})
	return !wakesItself
}

// acceptsFirst reports whether st, the first statement of a loop's body,
// takes the next connection from a listener (`conn, err := ln.Accept()`:
// a method Accept of no arguments answering a net.Conn and an error, on
// a type that implements net.Listener). The pass waits for a peer to
// connect; one that fails its handshake is followed by the next peer's
// attempt, not by a resend: a serve loop, paced by its clients.
func (m *builder) acceptsFirst(st ast.Stmt) bool {
	as, ok := st.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return false
	}
	call, ok := analysisutil.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil || fn.Name() != "Accept" {
		return false
	}
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Results().Len() != 2 || !analysisutil.IsErrorType(sig.Results().At(1).Type()) {
		return false
	}
	conn, ok := types.Unalias(sig.Results().At(0).Type()).(*types.Named)
	if !ok || conn.Obj().Pkg() == nil || conn.Obj().Pkg().Path() != "net" || conn.Obj().Name() != "Conn" {
		return false
	}
	l, ok := conn.Obj().Pkg().Scope().Lookup("Listener").(*types.TypeName)
	if !ok {
		return false
	}
	iface, ok := l.Type().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	recv := sig.Recv().Type()
	return types.Implements(recv, iface) || types.Implements(types.NewPointer(recv), iface)
}

// terminalPaced reports whether every pass of a loop's body reads the
// process's standard input: a statement of the body itself (no branch's)
// reads it or hands it on, itself or through a function that does
// (waits.ReadsTerminalStmt), and no statement before it can start the
// next pass (goesRound: a `continue` of the loop, a goto). Each pass then
// waits for a person (a "try again?" prompt, an editor run in the
// foreground) or for the input that feeds the process: the pace and the
// bound are theirs, and what failed is tried again when they say so. No
// retry.
func (m *builder) terminalPaced(body *ast.BlockStmt, label string) bool {
	for _, st := range body.List {
		if m.waitLayer.ReadsTerminalStmt(st) {
			return true
		}
		if goesRound(st, label) {
			return false
		}
	}
	return false
}

// eventRecv returns the channel variable a statement receives from,
// dropping the value, when that channel is kept outside the function
// and is no timer's: `<-kick`, `_ = <-w.wake`; nil for any other
// statement.
func (m *builder) eventRecv(st ast.Stmt) types.Object {
	var x ast.Expr
	switch st := st.(type) {
	case *ast.ExprStmt:
		x = st.X
	case *ast.AssignStmt:
		for _, l := range st.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				return nil
			}
		}
		if len(st.Rhs) != 1 {
			return nil
		}
		x = st.Rhs[0]
	default:
		return nil
	}
	u, ok := analysisutil.Unparen(x).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW || !m.fromOutside(u.X) {
		return nil
	}
	ch, ok := m.pass.TypesInfo.TypeOf(u.X).Underlying().(*types.Chan)
	if !ok || analysisutil.IsNamedType(ch.Elem(), "time", "Time") {
		return nil
	}
	return m.vals.ObjOf(u.X)
}
