package model

// Sessions run by a statement: a session function whose error the
// caller drops (`c.pump()`), or a function that runs one to its end and
// answers something else (`again := c.listen()`, a bool saying whether
// to reconnect). Either way the session has ended, by a failure, when
// the statement completes.

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// RunsSessionFact is exported for a function with no error result whose
// body runs a session to its end on every path: a statement of the
// body's own list, with no return before it, calls a session function
// (SessionFact) or another function that runs one, as a statement or as
// the one value of an assignment (`err := c.pump()`). It returns only
// once the session failed, whatever it answers.
type RunsSessionFact struct{}

func (*RunsSessionFact) AFact() {}

func (*RunsSessionFact) String() string { return "runs a session" }

// findRunsSessions computes the package's functions that run a session
// (one may run another) and exports their facts. After findSessions.
func (m *builder) findRunsSessions() {
	m.runsSessionFuncs = map[*types.Func]bool{}
	m.funcsWhere(m.runsSessionFuncs, func(fn *types.Func, d *ast.FuncDecl) bool {
		res := fn.Type().(*types.Signature).Results()
		for i := range res.Len() {
			if analysisutil.IsErrorType(res.At(i).Type()) {
				return false
			}
		}
		for _, st := range d.Body.List {
			if call, _ := m.sessionStmt(st); call != nil {
				return true
			}
			if analysisutil.AnyIn([]ast.Node{st}, func(n ast.Node) bool { _, ok := n.(*ast.ReturnStmt); return ok }) {
				return false // a return before the session may skip it
			}
		}
		return false
	}, func() analysis.Fact { return &RunsSessionFact{} })
}

// runsSession reports whether fn, of this package or another (by its
// fact), runs a session to its end.
func (m *builder) runsSession(fn *types.Func) bool {
	return m.funcHas(fn, m.runsSessionFuncs, new(RunsSessionFact))
}

// sessionStmt returns the call by which st runs a session to its end
// (stmtCall): a call of a session function or of one that runs a
// session, as an expression statement or as the one value of an
// assignment, with the session's error kept (`err := c.pump()`) or
// dropped (`_ = c.pump()`), or what a function that runs a session
// answers (`again := c.listen()`); dropped: no variable keeps a result.
// Nil otherwise.
func (m *builder) sessionStmt(st ast.Stmt) (call *ast.CallExpr, dropped bool) {
	call, dropped = stmtCall(st)
	if call == nil {
		return nil, false
	}
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if m.isSession(fn) || m.runsSession(fn) {
		return call, dropped
	}
	return nil, false
}

// sessionTest returns the path s after the test call, when it is a call
// of a function that runs a session (`if !c.listen() { return }`).
func (in *interp) sessionTest(call *ast.CallExpr, s *state) *state {
	if in.runsSession != nil && in.runsSession(analysisutil.Callee(in.info, call)) {
		return in.endSession(s, call)
	}
	return s
}

// sessionRan returns the path s after the statement st, when st runs a
// session whose outcome no variable holds (`c.pump()`, `_ = c.pump()`,
// `again := c.listen()`): the session is an operation that ran and, as
// sessions do, failed (a slot keyed by the call). A session whose error
// a variable keeps is bound as any operation's (bindOp).
func (in *interp) sessionRan(st ast.Stmt, s *state) *state {
	if in.sessionStmt == nil {
		return s
	}
	call, dropped := in.sessionStmt(st)
	if call == nil || !dropped && in.sessions(analysisutil.Callee(in.info, call)) {
		return s // err := c.pump(): bound by bindOp
	}
	return in.endSession(s, call)
}

// endSession returns the path s after call ran a session to its end.
func (in *interp) endSession(s *state, call *ast.CallExpr) *state {
	s = s.clone()
	in.startOp(s, call)
	s.setSlot(slot{key: call, op: call, session: true, st: stFailed})
	return s
}
