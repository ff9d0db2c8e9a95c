package waits

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// inSelectWithDone reports whether call is in (or feeds) a select, within
// root, that also waits on a context's Done channel — or a timer whose
// channel is received in such a select.
func (m *Result) InSelectWithDone(call *ast.CallExpr, root ast.Node) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectStmt)
		if !ok || found {
			return !found
		}
		hasDone := m.watchesDone(sel)
		if hasDone && (sel.Pos() <= call.Pos() && call.End() <= sel.End()) {
			found = true
		}
		if hasDone && !found {
			// A timer made before the select: t := time.NewTimer(d);
			// select { case <-t.C: }, or wake := time.After(d).
			found = m.timerFeeds(call, sel, root)
		}
		return !found
	})
	return found
}

// isDoneChan reports whether e is a context's Done channel: ctx.Done(),
// or a local variable that is only ever assigned ctx.Done().
func (m *Result) isDoneChan(e ast.Expr) bool {
	if isDoneCall(m.pass.TypesInfo, e) {
		return true
	}
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !provenance.IsLocal(v) {
		return false
	}
	as := m.vals.Assigns[v]
	if len(as) == 0 {
		return false
	}
	for _, a := range as {
		if a.Value == nil || !isDoneCall(m.pass.TypesInfo, a.Value) {
			return false
		}
	}
	return true
}

// UnderNeverDone reports whether call runs only when a context can never
// be cancelled: inside `if ctx.Done() == nil { ... }` (a conjunct of the
// condition will do), or after `if ctx.Done() != nil { ... }` in the same
// block when that guard's body always leaves (`if done := ctx.Done(); done
// != nil { select { case <-done: return; case <-t.C: continue } };
// time.Sleep(d)`).
func (m *Result) UnderNeverDone(call *ast.CallExpr, fnBody *ast.BlockStmt) bool {
	nilDone := func(e ast.Expr) bool { return m.comparesDone(e, token.EQL, token.LAND) }
	liveDone := func(e ast.Expr) bool { return m.comparesDone(e, token.NEQ, token.LOR) }
	found := false
	ast.Inspect(fnBody, func(n ast.Node) bool {
		if found || n == nil || n.Pos() > call.Pos() || n.End() < call.End() {
			return false // only the nodes that enclose the call decide
		}
		switch x := n.(type) {
		case *ast.IfStmt:
			if x.Body.Pos() <= call.Pos() && call.End() <= x.Body.End() && nilDone(x.Cond) {
				found = true
			}
			// if ctx.Done() != nil { select { ... } } else { time.Sleep(d) }
			if x.Else != nil && x.Else.Pos() <= call.Pos() && call.End() <= x.Else.End() && liveDone(x.Cond) {
				found = true
			}
		case *ast.CaseClause:
			// switch done := ctx.Done(); done { case nil: time.Sleep(d) }
			found = m.nilDoneCase(x, fnBody)
		case *ast.BlockStmt:
			// if done := ctx.Done(); done != nil { select { ... } }
			// followed by the call: the call runs only when the
			// guard's body, which always leaves, did not.
			for _, st := range x.List {
				if st.Pos() > call.Pos() {
					break
				}
				if ifs, ok := st.(*ast.IfStmt); ok && ifs.Else == nil && ifs.End() <= call.Pos() && liveDone(ifs.Cond) && alwaysLeaves(m.pass.TypesInfo, ifs.Body.List) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// nilDoneCase reports whether cc is a case of a switch on a context's
// Done channel (`switch ctx.Done()`, or a variable only ever assigned it)
// that holds only when the channel is nil: the context can never be
// cancelled there.
func (m *Result) nilDoneCase(cc *ast.CaseClause, fnBody *ast.BlockStmt) bool {
	if len(cc.List) == 0 {
		return false
	}
	for _, e := range cc.List {
		if tv, ok := m.pass.TypesInfo.Types[e]; !ok || !tv.IsNil() {
			return false
		}
	}
	var sw *ast.SwitchStmt
	ast.Inspect(fnBody, func(n ast.Node) bool {
		if s, ok := n.(*ast.SwitchStmt); ok && s.Body.Pos() <= cc.Pos() && cc.End() <= s.Body.End() && slices.Contains(s.Body.List, ast.Stmt(cc)) {
			sw = s
		}
		return sw == nil
	})
	if sw == nil || sw.Tag == nil || !m.isOwnDoneChan(sw.Tag) {
		return false
	}
	// A case before it that falls through reaches it too.
	if i := slices.Index(sw.Body.List, ast.Stmt(cc)); i > 0 {
		prev := sw.Body.List[i-1].(*ast.CaseClause).Body
		if len(prev) > 0 {
			if b, ok := prev[len(prev)-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
				return false
			}
		}
	}
	return true
}

// isOwnDoneChan is isDoneChan for the Done channel of a context held in a
// local variable or parameter (ctx.Done(), or a local only ever assigned
// it): the function's own context, not one kept in a field (w.life),
// which says nothing of whether ctx can be cancelled.
func (m *Result) isOwnDoneChan(e ast.Expr) bool {
	info := m.pass.TypesInfo
	own := func(call ast.Expr) bool {
		c, ok := ast.Unparen(call).(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(sel.X).(*ast.Ident)
		return ok && provenance.IsLocal(info.Uses[id])
	}
	if !m.isDoneChan(e) {
		return false
	}
	if isDoneCall(info, e) {
		return own(e)
	}
	id := ast.Unparen(e).(*ast.Ident)
	for _, a := range m.vals.Assigns[info.Uses[id]] {
		if !own(a.Value) {
			return false
		}
	}
	return true
}

// comparesDone reports whether cond compares ctx.Done() (or a variable
// only ever assigned it) with nil by op, alone or as one operand of join:
// `ctx.Done() == nil` in a conjunction (the context can never be
// cancelled when it holds), `done != nil` in a disjunction (it can be,
// when the condition fails it cannot).
func (m *Result) comparesDone(cond ast.Expr, op, join token.Token) bool {
	return m.comparesDoneDepth(cond, op, join, 0)
}

func (m *Result) comparesDoneDepth(cond ast.Expr, op, join token.Token, depth int) bool {
	if depth > 4 {
		return false
	}
	info := m.pass.TypesInfo
	switch x := analysisutil.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		// !live: the negation of a comparison the other way.
		if x.Op == token.NOT {
			flip := map[token.Token]token.Token{token.EQL: token.NEQ, token.NEQ: token.EQL, token.LAND: token.LOR, token.LOR: token.LAND}
			return m.comparesDoneDepth(x.X, flip[op], flip[join], depth+1)
		}
	case *ast.Ident:
		// cancellable := ctx.Done() != nil; ...; if !cancellable
		v, ok := info.Uses[x].(*types.Var)
		if !ok || !provenance.IsLocal(v) || len(m.vals.Assigns[v]) == 0 {
			return false
		}
		for _, a := range m.vals.Assigns[v] {
			if a.Value == nil || !m.comparesDoneDepth(a.Value, op, join, depth+1) {
				return false
			}
		}
		return true
	case *ast.CallExpr:
		// cancellable(ctx), a function of the package that returns
		// such a comparison and does nothing else.
		fn := analysisutil.Callee(info, x)
		if fn == nil {
			return false
		}
		d := m.vals.Decls[fn.Origin()]
		if d == nil || d.Body == nil || len(d.Body.List) != 1 {
			return false
		}
		ret, ok := d.Body.List[0].(*ast.ReturnStmt)
		return ok && len(ret.Results) == 1 && m.comparesDoneDepth(ret.Results[0], op, join, depth+1)
	}
	be, ok := analysisutil.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if be.Op == join {
		return m.comparesDoneDepth(be.X, op, join, depth+1) || m.comparesDoneDepth(be.Y, op, join, depth+1)
	}
	if be.Op != op {
		return false
	}
	isNil := func(x ast.Expr) bool {
		tv, ok := m.pass.TypesInfo.Types[x]
		return ok && tv.IsNil()
	}
	return m.isOwnDoneChan(be.X) && isNil(be.Y) || m.isOwnDoneChan(be.Y) && isNil(be.X)
}

// alwaysLeaves reports whether a statement list never falls through its
// end: its last statement returns, branches (continue, break, goto) or
// panics, or is a select (with or without default) or a switch with a
// default, each of whose cases always leaves.
func alwaysLeaves(info *types.Info, list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch last := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return last.Tok != token.FALLTHROUGH
	case *ast.ExprStmt:
		if c, ok := last.X.(*ast.CallExpr); ok {
			if id, ok := analysisutil.Unparen(c.Fun).(*ast.Ident); ok {
				if b, builtin := info.Uses[id].(*types.Builtin); builtin && b.Name() == "panic" {
					return true
				}
			}
		}
	case *ast.BlockStmt:
		return alwaysLeaves(info, last.List)
	case *ast.IfStmt:
		if last.Else == nil || !alwaysLeaves(info, last.Body.List) {
			return false
		}
		switch e := last.Else.(type) {
		case *ast.BlockStmt:
			return alwaysLeaves(info, e.List)
		case *ast.IfStmt:
			return alwaysLeaves(info, []ast.Stmt{e})
		}
	case *ast.SelectStmt:
		for _, c := range last.Body.List {
			if !alwaysLeaves(info, c.(*ast.CommClause).Body) {
				return false
			}
		}
		return len(last.Body.List) > 0
	case *ast.SwitchStmt:
		hasDefault := false
		for _, c := range last.Body.List {
			cc := c.(*ast.CaseClause)
			if cc.List == nil {
				hasDefault = true
			}
			if !alwaysLeaves(info, cc.Body) {
				return false
			}
		}
		return hasDefault
	}
	return false
}

// timerFeeds reports whether the timer made (or reset) by call is
// received in sel: the value call makes is kept in a variable (tm :=
// time.NewTimer(d), wake := time.After(d), var wake <-chan time.Time =
// ...), and a case receives from it (<-wake), from its channel (<-tm.C),
// or from a variable only ever assigned one of those (tc := tm.C). A
// Reset names its timer as the receiver: <-t.C of t.Reset(d).
func (m *Result) timerFeeds(call *ast.CallExpr, sel *ast.SelectStmt, root ast.Node) bool {
	info := m.pass.TypesInfo
	var made types.Object
	ast.Inspect(root, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) == 1 && len(x.Rhs) == 1 && ast.Unparen(x.Rhs[0]) == ast.Expr(call) {
				made = provenance.BaseObj(info, x.Lhs[0])
			}
		case *ast.ValueSpec:
			if len(x.Names) == 1 && len(x.Values) == 1 && ast.Unparen(x.Values[0]) == ast.Expr(call) {
				made = info.Defs[x.Names[0]]
			}
		}
		return made == nil
	})
	var reset types.Object
	if sx, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		reset = provenance.BaseObj(info, sx.X)
	}
	// fed reports whether e is the timer's channel: the variable made
	// (time.After's channel) or the C of the timer made or reset.
	fed := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if id, ok := e.(*ast.Ident); ok {
			return made != nil && info.Uses[id] == made
		}
		if c, ok := e.(*ast.CallExpr); ok && len(c.Args) == 0 && timeChan(info.TypeOf(c)) {
			// <-t.C() of an injected clock's timer: a method of the
			// timer made or reset that gives its channel of times
			if sx, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
				obj := provenance.BaseObj(info, sx.X)
				return obj != nil && (obj == made || obj == reset)
			}
			return false
		}
		se, ok := e.(*ast.SelectorExpr)
		if !ok || se.Sel.Name != "C" {
			return false
		}
		obj := provenance.BaseObj(info, se.X)
		return obj != nil && (obj == made || obj == reset)
	}
	// isTimerChan reports whether e is the timer's channel, or a local
	// only ever assigned it (tc := tm.C; ... <-tc).
	isTimerChan := func(e ast.Expr) bool { return m.vals.Every(info, e, fed) }
	feeds := false
	for _, c := range sel.Body.List {
		cc := c.(*ast.CommClause)
		if cc.Comm == nil {
			continue
		}
		ast.Inspect(cc.Comm, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && isTimerChan(u.X) {
				feeds = true
			}
			return !feeds
		})
	}
	if !feeds {
		return false
	}
	// Every receive of the timer in root is in a select that also
	// watches a Done channel: a bare <-wake elsewhere ignores it.
	watched := true
	ast.Inspect(root, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			if m.watchesDone(x) {
				return false
			}
		case *ast.UnaryExpr:
			if x.Op == token.ARROW && isTimerChan(x.X) {
				watched = false
			}
		}
		return watched
	})
	return watched
}

// timeChan reports whether t is a channel of time.Time values.
func timeChan(t types.Type) bool {
	ch, ok := types.Unalias(t).(*types.Chan)
	return ok && analysisutil.IsNamedType(ch.Elem(), "time", "Time")
}

// watchesDone reports whether a select has a case receiving from a
// context's Done channel.
func (m *Result) watchesDone(sel *ast.SelectStmt) bool {
	for _, c := range sel.Body.List {
		cc := c.(*ast.CommClause)
		if cc.Comm == nil {
			continue
		}
		found := false
		ast.Inspect(cc.Comm, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && m.isDoneChan(u.X) {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
