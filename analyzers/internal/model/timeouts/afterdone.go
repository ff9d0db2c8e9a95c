package timeouts

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// afterDone reports whether cur lies, inside body, in a branch taken only
// once the context in scope (its text, scope) is done: the body of an if
// whose condition holds only then (`ctx.Err() != nil`, `errors.Is(err,
// context.Canceled)`, `err == context.DeadlineExceeded`, each disjunct
// of an || so), or a select case that received from its Done channel. A
// Background there is no dropped context: the caller's has ended, and
// what runs now (a server-side cancel, a release) must not run under it.
func (m *layer) afterDone(cur, body inspector.Cursor, scope string) bool {
	for c := cur; c.Node() != nil && c != body; c = c.Parent() {
		switch p := c.Parent().Node().(type) {
		case *ast.IfStmt:
			if k, _ := c.ParentEdge(); k == edge.IfStmt_Body && m.onlyWhenDone(p.Cond, scope) {
				return true
			}
		case *ast.CommClause:
			if k, _ := c.ParentEdge(); k == edge.CommClause_Body && m.receivesDone(p.Comm, scope) {
				return true
			}
		}
	}
	return false
}

// onlyWhenDone reports whether cond holds only when a context is done:
// each of its || disjuncts has an && conjunct that says so.
func (m *layer) onlyWhenDone(cond ast.Expr, scope string) bool {
	for _, d := range analysisutil.Split(cond, token.LOR) {
		found := false
		for _, c := range analysisutil.Split(d, token.LAND) {
			if m.saysDone(c, scope) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// saysDone reports whether e is true only when a context is done: the
// Err of the one in scope is not nil, or an error is (or wraps)
// context.Canceled or context.DeadlineExceeded.
func (m *layer) saysDone(e ast.Expr, scope string) bool {
	info := m.pass.TypesInfo
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.NEQ:
			for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
				if info.Types[pair[1]].IsNil() && m.errQuery(pair[0], scope) {
					return true
				}
			}
		case token.EQL:
			return m.doneErr(x.X) || m.doneErr(x.Y)
		}
	case *ast.CallExpr:
		if analysisutil.IsFunc(analysisutil.Callee(info, x), "errors", "Is") && len(x.Args) == 2 {
			return m.doneErr(x.Args[1])
		}
	}
	return false
}

// doneErr reports whether e is context.Canceled or
// context.DeadlineExceeded.
func (m *layer) doneErr(e ast.Expr) bool {
	obj := analysisutil.ReferredObject(m.pass.TypesInfo, e)
	return analysisutil.IsPkgVar(obj, "context", "Canceled") || analysisutil.IsPkgVar(obj, "context", "DeadlineExceeded")
}

// receivesDone reports whether comm receives from the Done channel of
// the context in scope (`case <-ctx.Done():`).
func (m *layer) receivesDone(comm ast.Stmt, scope string) bool {
	return m.doneQuery(analysisutil.CommRecv(comm), scope)
}

// doneOnEntry reports whether the context parameter named scope of the
// function fd is done whenever the function runs: every call of fd is
// in this package and known (callsKnown), and every call (but a
// recursive one passing the parameter on) gives it the
// caller's own context in a branch taken only once that context is done
// (`case <-ctx.Done(): return s.sendCancel(ctx, tx)`). The function is
// the caller's reaction to giving up; a Background in it drops nothing
// live, and what it sends (a server-side cancel) must not run under the
// ended context.
func (m *layer) doneOnEntry(fd *ast.FuncDecl, scope string) bool {
	if strings.Contains(scope, ".") {
		return false // a request's context: the request is the parameter
	}
	param := m.paramNamed(fd, scope)
	if param == nil {
		return false
	}
	ix := m.callers()
	p, ok := ix.params[param]
	if !ok || !m.callsKnown(ix, p) {
		return false
	}
	root := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root()
	given := false
	for _, c := range ix.calls[p.fn] {
		if c.Ellipsis.IsValid() || p.idx >= len(c.Args) {
			return false
		}
		id, ok := analysisutil.Unparen(c.Args[p.idx]).(*ast.Ident)
		if !ok {
			return false
		}
		if m.pass.TypesInfo.Uses[id] == param {
			continue // a recursive call passes on what it was given
		}
		caller := m.enclosingDecl(c.Pos())
		if caller == nil || caller.Body == nil || !isContextType(m.pass.TypesInfo.TypeOf(id)) {
			return false
		}
		body, ok1 := root.FindNode(caller.Body)
		cur, ok2 := body.FindNode(c)
		if !ok1 || !ok2 || !m.afterDone(cur, body, id.Name) {
			return false
		}
		given = true
	}
	return given
}
