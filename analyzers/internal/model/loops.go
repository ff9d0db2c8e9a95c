package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
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
	if gotoList == nil && m.eventPaced(stmt) {
		return nil
	}
	if m.iterates(in, stmt, gotoList, gotoIdx) {
		m.addFailover(in, body, stmt, label, gotoList, gotoIdx)
		return nil
	}
	in.steps, in.aborted, in.immediate, in.immediateIdentified, in.immediateOps = 0, false, false, false, nil
	v := in.judgeLoop(body, stmt, label, gotoList, gotoIdx)
	if !v.retry {
		if v.resume {
			m.addResume(stmt, label, gotoList, gotoIdx, body)
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
	m.findDelays(r, body)
	r.Probe = in.probe(r.Ops)
	// An immediate retry is one that never waits: a loop that waits on
	// some paths (after the first retry, on some errors) is judged by the
	// backoff of those waits instead.
	if r.Immediate && anyIn(r.Ops, in.waitsHere) {
		r.Immediate, r.ImmediateIdentified = false, false
	}
	r.TimeBounded = m.timeBounded(r.Ops) || m.condStop(stmt)
	if fs, ok := stmt.(*ast.ForStmt); ok && fs.Cond != nil && !r.TimeBounded {
		// for time.Now().Before(end): the loop's own condition.
		r.TimeBounded = m.readsClock(fs.Cond, m.clockVars(r.Ops))
	}
	r.CountBounded = v.attempts > 0 || v.givesUp || m.countBounded(stmt, r.Ops)
	m.add(r)
	return r
}

// countBounded reports whether a loop compares a counter it advances
// (x++, x--, x += n, x -= n) with anything: an attempt limit, constant or
// configured.
func (m *builder) countBounded(stmt ast.Stmt, ops []ast.Node) bool {
	info := m.pass.TypesInfo
	if rs, ok := stmt.(*ast.RangeStmt); ok {
		if b, ok := info.TypeOf(rs.X).Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return true
		}
		if waits.IsSchedule(info.TypeOf(rs.X)) {
			return true // a pass per delay of a schedule
		}
	}
	nodes := append([]ast.Node{stmt}, ops...)
	counters := map[types.Object]bool{}
	objOf := func(e ast.Expr) types.Object {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			return info.ObjectOf(x)
		case *ast.SelectorExpr:
			return info.Uses[x.Sel]
		}
		return nil
	}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if e := steppedBy(n); e != nil {
				if obj := objOf(e); obj != nil {
					counters[obj] = true
				}
			}
			switch x := n.(type) {
			case *ast.CallExpr:
				// backOff(&tries): a function of the package that steps
				// the counter through the pointer it is given.
				for i, a := range x.Args {
					if u, ok := analysisutil.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND && m.stepsParam(analysisutil.Callee(info, x), i) {
						if obj := objOf(u.X); obj != nil {
							counters[obj] = true
						}
					}
				}
			}
			return true
		})
	}
	found := false
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && !found && (givesVerdict(info, c) || m.nilVerdict(c)) {
				// wait, retry := b.Next(n): a policy given the count
				// says whether to go on; the bound is its own.
				for _, a := range c.Args {
					if obj := objOf(a); obj != nil && counters[obj] {
						found = true
					}
				}
				// c.retry.Attempt(q): a policy the model cannot see
				// into, given the request rather than the error, may
				// count what the request carries: its bound is
				// unknown, not absent. (Given only the error, it
				// classifies and counts nothing.)
				if !found && opaqueCall(info, c) {
					found = true
					for _, a := range c.Args {
						if analysisutil.IsErrorType(info.TypeOf(a)) {
							found = false
						}
					}
				}
				// b.Take(): a method of the package that counts a field
				// of its receiver and tests it (a retry budget).
				if !found && m.countsReceiver(analysisutil.Callee(info, c)) {
					found = true
				}
			}
			if be, ok := n.(*ast.BinaryExpr); ok && !found {
				switch be.Op {
				case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
					ast.Inspect(be, func(n ast.Node) bool {
						if e, ok := n.(ast.Expr); ok {
							if obj := objOf(e); obj != nil && counters[obj] {
								found = true
							}
						}
						return !found
					})
				}
			}
			return !found
		})
	}
	return found
}

// stepsParam reports whether fn, a function of the package, steps the
// value its parameter i points at: *p++, *p--, *p += n, *p -= n.
func (m *builder) stepsParam(fn *types.Func, i int) bool {
	if fn == nil || fn.Pkg() != m.pass.Pkg {
		return false
	}
	key := stepKey{fn.Origin(), i}
	if v, ok := m.steps[key]; ok {
		return v
	}
	v := m.stepsParam1(fn, i)
	if m.steps == nil {
		m.steps = map[stepKey]bool{}
	}
	m.steps[key] = v
	return v
}

// stepKey is a function and the index of a parameter of it.
type stepKey struct {
	fn *types.Func
	i  int
}

// stepsParam1 is stepsParam, not memoized: it walks fn's body.
func (m *builder) stepsParam1(fn *types.Func, i int) bool {
	d := m.vals.Decls[fn.Origin()]
	sig, _ := fn.Type().(*types.Signature)
	if d == nil || d.Body == nil || sig == nil || i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
		return false
	}
	info := m.pass.TypesInfo
	p := sig.Params().At(i)
	deref := func(e ast.Expr) bool {
		st, ok := analysisutil.Unparen(e).(*ast.StarExpr)
		if !ok {
			return false
		}
		id, ok := analysisutil.Unparen(st.X).(*ast.Ident)
		return ok && info.Uses[id] == p
	}
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if e := steppedBy(n); e != nil {
			found = deref(e)
		}
		return !found
	})
	return found
}

// steppedBy returns the expression n steps as a counter: x in x++, x--,
// x += k and x -= k; nil for any other node.
func steppedBy(n ast.Node) ast.Expr {
	switch x := n.(type) {
	case *ast.IncDecStmt:
		return x.X
	case *ast.AssignStmt:
		if (x.Tok == token.ADD_ASSIGN || x.Tok == token.SUB_ASSIGN) && len(x.Lhs) == 1 {
			return x.Lhs[0]
		}
	}
	return nil
}

// countsReceiver reports whether fn is a method of the package that
// steps a field of its receiver (`b.left--`, `b.used += n`) and compares
// that field: it answers from a count it keeps, a budget.
func (m *builder) countsReceiver(fn *types.Func) bool {
	if fn == nil || fn.Pkg() != m.pass.Pkg {
		return false
	}
	d := m.vals.Decls[fn]
	if d == nil || d.Body == nil || d.Recv == nil || len(d.Recv.List) == 0 || len(d.Recv.List[0].Names) == 0 {
		return false
	}
	info := m.pass.TypesInfo
	recv := info.Defs[d.Recv.List[0].Names[0]]
	field := func(e ast.Expr) *types.Var {
		sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); !ok || recv == nil || info.Uses[id] != recv {
			return nil
		}
		v, _ := info.Uses[sel.Sel].(*types.Var)
		return v
	}
	stepped := map[*types.Var]bool{}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if e := steppedBy(n); e != nil {
			if v := field(e); v != nil {
				stepped[v] = true
			}
		}
		return true
	})
	if len(stepped) == 0 {
		return false
	}
	compared := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if be, ok := n.(*ast.BinaryExpr); ok {
			switch be.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
				if v := field(be.X); v != nil && stepped[v] {
					compared = true
				}
				if v := field(be.Y); v != nil && stepped[v] {
					compared = true
				}
			}
		}
		return !compared
	})
	return compared
}

// opaqueCall reports whether call is one the model cannot see into: a
// function value, or a method of an interface.
func opaqueCall(info *types.Info, call *ast.CallExpr) bool {
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		tv, ok := info.Types[call.Fun]
		return ok && !tv.IsType() && !tv.IsBuiltin()
	}
	return analysisutil.IsInterfaceMethod(fn)
}

// nilVerdict reports whether call is of a function of the package
// that answers "stop" with a nil pointer: a result of pointer type that
// some return of its body gives as nil (`next := st.step(p)`, nil once
// the tries are used up, else the wait before the next).
func (m *builder) nilVerdict(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() != m.pass.Pkg {
		return false
	}
	if v, ok := m.nilVerdicts[fn.Origin()]; ok {
		return v
	}
	v := m.nilVerdict1(fn)
	if m.nilVerdicts == nil {
		m.nilVerdicts = map[*types.Func]bool{}
	}
	m.nilVerdicts[fn.Origin()] = v
	return v
}

// nilVerdict1 is nilVerdict, not memoized: it walks fn's body.
func (m *builder) nilVerdict1(fn *types.Func) bool {
	d := m.vals.Decls[fn.Origin()]
	sig, _ := fn.Origin().Type().(*types.Signature)
	if d == nil || d.Body == nil || sig == nil {
		return false
	}
	var ptrs []int
	for i := range sig.Results().Len() {
		if _, ok := sig.Results().At(i).Type().Underlying().(*types.Pointer); ok {
			ptrs = append(ptrs, i)
		}
	}
	if len(ptrs) == 0 {
		return false
	}
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == sig.Results().Len() {
			for _, i := range ptrs {
				if isNilIdent(m.pass.TypesInfo, ret.Results[i]) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// givesVerdict reports whether call returns a bool among its results: an
// answer such as "go on" or "stop".
func givesVerdict(info *types.Info, call *ast.CallExpr) bool {
	switch t := info.TypeOf(call).(type) {
	case *types.Tuple:
		for v := range t.Variables() {
			if analysisutil.IsBool(v.Type()) {
				return true
			}
		}
		return false
	case nil:
		return false
	default:
		return analysisutil.IsBool(t)
	}
}

// timeBounded reports whether a loop checks a context or the clock, leaves
// when a field set elsewhere says so (flagStop), calls
// a function that checks the context it is given (CtxCheckFact), or
// leaves when a channel other than a timer's is ready (a stop or close
// channel: another goroutine ends the loop).
func (m *builder) timeBounded(nodes []ast.Node) bool {
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
		call, ok := n.(*ast.CallExpr)
		if !ok {
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
		return ok && in.isOp(c)
	})
}
