package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// findRetries finds the retry sites of one file.
func (m *builder) findRetries(f *ast.File) {
	info := m.pass.TypesInfo
	// The file's cursor: FindNode skips every file's subtree (no file
	// holds a file), so this costs the number of files.
	file, ok := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root().FindNode(f)
	if !ok {
		return
	}
	keptVars := m.keptClosureVars(file)
	keptVar := func(e ast.Expr) bool {
		v, ok := m.vals.ObjOf(e).(*types.Var)
		return ok && keptVars[v]
	}
	for c := range file.Preorder((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch n := c.Node().(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				m.findLoops(n.Body)
				m.findRecursions(n, c)
			}
		case *ast.FuncLit:
			m.findLoops(n.Body)
			switch p := c.Parent().Node().(type) {
			case *ast.ReturnStmt, *ast.CompositeLit, *ast.KeyValueExpr:
				m.uncounted[n] = true
			case *ast.SendStmt:
				// work <- func() {...}: handed to whoever receives it.
				if analysisutil.Unparen(p.Value) == ast.Expr(n) {
					m.uncounted[n] = true
				}
			case *ast.CallExpr:
				// c.OnClose(func() {...}), time.AfterFunc(d, func() {...}):
				// a hook kept to run later.
				for i, a := range p.Args {
					if analysisutil.Unparen(a) == ast.Expr(n) && (m.keepsArg(p, i) || i > 0 && isBuiltin(info, p.Fun, "append")) {
						m.uncounted[n] = true
					}
				}
			case *ast.AssignStmt:
				for _, l := range p.Lhs {
					if _, isIdent := analysisutil.Unparen(l).(*ast.Ident); !isIdent {
						m.uncounted[n] = true
					} else if obj := m.vals.ObjOf(l); obj != nil && obj.Parent() == m.pass.Pkg.Scope() || keptVar(l) {
						m.uncounted[n] = true
					}
				}
			case *ast.ValueSpec:
				for _, id := range p.Names {
					if obj := info.Defs[id]; obj != nil && obj.Parent() == m.pass.Pkg.Scope() || keptVar(id) {
						m.uncounted[n] = true
					}
				}
			}
		}
	}
}

// findCalls recognizes the retry calls of one file (after the
// loops, so that the package's own retry helpers are known).
func (m *builder) findCalls(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			m.findCallRetry(call)
		}
		return true
	})
}

// findHelperCalls recognizes the calls of retry helpers found since the
// calls were first looked at: each call that is no retry site yet.
func (m *builder) findHelperCalls(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && m.retryAt[call] == nil {
			if fn := analysisutil.Callee(m.pass.TypesInfo, call); fn != nil {
				if h := m.helperOf(fn); h != nil {
					m.helperCall(call, fn, h)
				}
			}
		}
		return true
	})
}

// findLoops judges the loops of one function body (not those of closures
// inside it, which are judged as functions of their own).
func (m *builder) findLoops(body *ast.BlockStmt) {
	in := m.newInterp()
	in.opVars, in.budget, in.yields, in.sessions = map[types.Object]bool{}, stepsFunction, m.yields, m.isSession
	in.sessionStmt, in.runsSession = m.sessionStmt, m.runsSession
	in.asyncBody = body
	// Variables that hold an operation's error anywhere in the function.
	ast.Inspect(body, func(n ast.Node) bool {
		in.budget += stepsPerNode
		in.fnSize++
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if call, ok := analysisutil.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && in.isOp(call) {
					res := in.results(call)
					for i, l := range n.Lhs {
						if i < len(res) && analysisutil.IsErrorType(res[i]) {
							if obj := in.objOf(l); obj != nil {
								in.opVars[obj] = true
							}
						}
					}
				}
			}
		}
		return true
	})
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			label := ""
			m.judge(in, body, n.(ast.Stmt), label, nil, 0)
		case *ast.LabeledStmt:
			if _, isLoop := n.Stmt.(*ast.ForStmt); isLoop {
				m.judge(in, body, n.Stmt, n.Label.Name, nil, 0)
				ast.Inspect(n.Stmt.(*ast.ForStmt).Body, visit)
				return false
			}
			if _, isLoop := n.Stmt.(*ast.RangeStmt); isLoop {
				m.judge(in, body, n.Stmt, n.Label.Name, nil, 0)
				ast.Inspect(n.Stmt.(*ast.RangeStmt).Body, visit)
				return false
			}
		case *ast.BlockStmt:
			m.findGotoLoops(in, body, n.List)
		case *ast.CaseClause:
			m.findGotoLoops(in, body, n.Body)
		case *ast.CommClause:
			m.findGotoLoops(in, body, n.Body)
		}
		return true
	}
	ast.Inspect(body, visit)
}

// findGotoLoops finds labels in list that a later goto jumps back to.
func (m *builder) findGotoLoops(in *interp, body *ast.BlockStmt, list []ast.Stmt) {
	for i, st := range list {
		ls, ok := st.(*ast.LabeledStmt)
		if !ok {
			continue
		}
		if _, isLoop := ls.Stmt.(*ast.ForStmt); isLoop {
			continue
		}
		if _, isLoop := ls.Stmt.(*ast.RangeStmt); isLoop {
			continue
		}
		last := -1
		for j := i; j < len(list); j++ {
			ast.Inspect(list[j], func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil && b.Label.Name == ls.Label.Name {
					last = j
				}
				return true
			})
		}
		if last < 0 {
			continue
		}
		if r := m.judge(in, body, ls, ls.Label.Name, list, i); r != nil {
			r.Ops = nil
			for _, s := range list[i : last+1] {
				r.Ops = append(r.Ops, s)
				if s != ls {
					m.covered[s] = r
				}
			}
		}
	}
}

func (m *builder) judge(in *interp, body *ast.BlockStmt, stmt ast.Stmt, label string, gotoList []ast.Stmt, gotoIdx int) *Retry {
	// Judging a loop scans the function (its initial values, its delays):
	// that is paid from the function's budget too, so that a function of
	// many loops stays linear. Loops past the budget are not judged.
	in.budget -= in.fnSize
	if in.budget < 0 {
		return nil
	}
	if !m.mayRetry(in, stmt, gotoList, gotoIdx) {
		return nil
	}
	if gotoList == nil && m.eventPaced(stmt, label) {
		return nil
	}
	if m.iterates(in, stmt, gotoList, gotoIdx, true) {
		if in.budget -= in.fnSize; in.budget >= 0 && !m.iterates(in, stmt, gotoList, gotoIdx, false) {
			// It only aims each request at what the last one answered.
			// A loop that does so after a success as after a failure,
			// going round on both, is a watch (each pass asks from the
			// last answer: a blocking query's index), not a redirect
			// followed: a resume loop, whose waits after failures are
			// judged as a retry's. (A second judgement, paid from the
			// function's budget as the first.)
			in.steps, in.aborted, in.immediate, in.immediateIdentified, in.immediateOps = 0, false, false, false, nil
			in.aims = true
			v := in.judgeLoop(body, stmt, label, gotoList, gotoIdx)
			in.aims = false
			if !v.retry && v.resume {
				m.addResume(stmt, label, gotoList, gotoIdx, body, v.failDelays)
				return nil
			}
		}
		m.addFailover(in, body, stmt, label, gotoList, gotoIdx)
		return nil
	}
	in.steps, in.aborted, in.immediate, in.immediateIdentified, in.immediateOps = 0, false, false, false, nil
	v := in.judgeLoop(body, stmt, label, gotoList, gotoIdx)
	if !v.retry {
		if v.resume {
			m.addResume(stmt, label, gotoList, gotoIdx, body, v.failDelays)
		}
		return nil
	}
	r := &Retry{Kind: LoopRetry, Node: stmt, Label: label, Pos: stmt.Pos(), End: stmt.Pos() + token.Pos(len("for")), Attempts: v.attempts,
		Immediate: in.immediate || in.immediateIdentified, ImmediateIdentified: !in.immediate && in.immediateIdentified, Identified: v.identified, ClientErrors: v.clientErrors, Specific: v.specific, NotDone: v.notDone, CancelProof: v.cancelProof,
		immediateOps: in.immediateOps, immediateKnown: in.immediateIdentified}
	switch st := stmt.(type) {
	case *ast.ForStmt:
		r.Ops = []ast.Node{st.Body}
		if st.Cond != nil {
			r.Ops = append(r.Ops, st.Cond)
		}
		if st.Post != nil {
			r.Ops = append(r.Ops, st.Post)
		}
	case *ast.RangeStmt:
		r.Ops = []ast.Node{st.Body}
	case *ast.LabeledStmt:
		r.Kind = GotoRetry
		r.End = st.Colon + 1
		r.Ops = []ast.Node{st}
	}
	if gotoList != nil {
		r.Ops = nil
		for _, s := range gotoList[gotoIdx:] {
			r.Ops = append(r.Ops, s)
		}
	}
	if r.Immediate || r.Attempts == 0 {
		r.Fallback = fallbackLadder(in.info, stmt, label, gotoList, gotoIdx)
	}
	m.findDelays(r, body)
	r.Probe = in.probe(r.Ops)
	r.Draws = in.draws(m, r.Ops)
	// An immediate retry is one that never waits: a loop that waits on
	// some paths (after the first retry, on some errors) is judged by the
	// backoff of those waits instead.
	if r.Immediate && anyIn(r.Ops, in.waitsHere) {
		r.Immediate, r.ImmediateIdentified = false, false
	}
	// A loop whose stop is a `case <-ctx.Done(): break` meant to leave
	// it: an attempt that fails once the context is done only makes it go
	// round, so the attempts do not bound it by time.
	// Nor does what that case calls.
	var skip func(*ast.CallExpr) bool
	var clause *ast.CommClause
	if clause, r.SelectBreak = m.breakOnlySelect(r.Ops); r.SelectBreak != nil {
		r.SelectDone = m.receivesDone(clause.Comm)
		skip = func(call *ast.CallExpr) bool {
			return in.isOp(call) || clause.Pos() <= call.Pos() && call.End() <= clause.End()
		}
	}
	r.TimeBounded = m.timeBounded(r.Ops, skip) || m.condStop(stmt)
	if fs, ok := stmt.(*ast.ForStmt); ok && fs.Cond != nil && !r.TimeBounded {
		// for time.Now().Before(end): the loop's own condition.
		r.TimeBounded = m.readsClock(fs.Cond, m.clockVars(r.Ops))
	}
	if r.TimeBounded {
		r.SelectBreak, r.SelectDone = nil, nil
	}
	r.CountBounded = v.attempts > 0 || v.givesUp || m.countBounded(stmt, r.Ops)
	m.add(r)
	return r
}

// timeBounded reports whether a loop checks a context or the clock, leaves
// when a field set elsewhere says so (flagStop), calls
// a function that checks the context it is given (CtxCheckFact), or
// leaves when a channel other than a timer's is ready (a stop or close
// channel: another goroutine ends the loop).
//
// skip, when not nil, names calls that do not count (the attempts).
func (m *builder) timeBounded(nodes []ast.Node, skip func(*ast.CallExpr) bool) bool {
	info := m.pass.TypesInfo
	// The calls whose result is dropped decide nothing.
	dropped := map[*ast.CallExpr]bool{}
	anyIn(nodes, func(n ast.Node) bool {
		if es, ok := n.(*ast.ExprStmt); ok {
			if c, ok := analysisutil.Unparen(es.X).(*ast.CallExpr); ok {
				dropped[c] = true
			}
		}
		return false
	})
	return anyIn(nodes, func(n ast.Node) bool {
		if cc, ok := n.(*ast.CommClause); ok {
			return m.stopCase(cc)
		}
		if call, ok := n.(*ast.CallExpr); ok && !dropped[call] && m.waitsOnStop(call) {
			return true
		}
		if m.cancelStop(n) {
			return true
		}
		if ifs, ok := n.(*ast.IfStmt); ok {
			return m.flagStop(ifs)
		}
		if sw, ok := n.(*ast.SwitchStmt); ok && m.switchStop(sw) {
			return true
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || skip != nil && skip(call) {
			return false
		}
		fn := analysisutil.Callee(info, call)
		if m.checksContext(fn, call) {
			return true
		}
		return isCtxQuery(fn) || analysisutil.IsFunc(fn, catalog.ResilintRetry, "Sleep")
	}) || m.clockTested(nodes)
}

// mayRetry is the cheap test before judging: the loop calls something
// fallible.
func (m *builder) mayRetry(in *interp, stmt ast.Stmt, gotoList []ast.Stmt, gotoIdx int) bool {
	return anyIn(loopNodes(stmt, gotoList, gotoIdx), func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && in.asyncRecv(e) != nil {
			return true // <-errc: an attempt run in a goroutine
		}
		c, ok := n.(*ast.CallExpr)
		return ok && in.isOp(c) && !isPure(in.info, c)
	})
}

// isPure reports whether call is of a catalog Pure row (strconv.Atoi,
// time.Parse): its failure is its argument's, and a loop whose only
// fallible calls are such reaches nothing to retry (a scan over lines
// that skips the ones that do not parse).
func isPure(info *types.Info, call *ast.CallExpr) bool {
	return callOfRole(info, call, catalog.Pure)
}
