package model

// Stops: how a loop learns that another goroutine wants it to end (a
// select case on a stop channel, a flag or getter read from a field, a
// wait of the package that selects on a stop kept outside it).

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// stopCase reports whether a select case receives from a channel and
// leaves the loop (returns, or breaks to a label or jumps past it): the
// loop ends when another goroutine closes or signals that channel, or
// when a deadline's timer fires (`case <-deadline.C: return`). A break
// without a label leaves the select (or a statement inside the case),
// never the loop around it.
func (m *builder) stopCase(cc *ast.CommClause) bool {
	if !receives(cc) {
		return false
	}
	leaves := false
	for _, st := range cc.Body {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				leaves = true
			case *ast.BranchStmt:
				if (x.Tok == token.BREAK && x.Label != nil) || x.Tok == token.GOTO {
					leaves = true
				}
			}
			return !leaves
		})
	}
	return leaves
}

// receives reports whether a select case receives from a channel.
func receives(cc *ast.CommClause) bool {
	if cc.Comm == nil {
		return false
	}
	found := false
	ast.Inspect(cc.Comm, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			found = true
		}
		return !found
	})
	return found
}

// breakOnlySelect returns a select case in nodes, and its break, that
// receives from a context's Done and ends with a break without a label,
// after nothing but calls (a log line): nothing it sets can make the
// loop leave later. The author meant the
// case to end the loop, but the break leaves only the select, and the
// loop goes round for ever once the context is done
// (`case <-ctx.Done(): break`). Nil when there is none.
func (m *builder) breakOnlySelect(nodes []ast.Node) (*ast.CommClause, *ast.BranchStmt) {
	var clause *ast.CommClause
	var found *ast.BranchStmt
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
				return false // another function's, an inner loop's
			case *ast.CommClause:
				if found != nil || !receives(x) || len(x.Body) == 0 || m.stopCase(x) || m.receivesDone(x.Comm) == nil {
					return true
				}
				for _, st := range x.Body[:len(x.Body)-1] {
					if _, ok := st.(*ast.ExprStmt); !ok {
						return true // err = ctx.Err(): something may test it later
					}
				}
				if br, ok := x.Body[len(x.Body)-1].(*ast.BranchStmt); ok && br.Tok == token.BREAK && br.Label == nil {
					clause, found = x, br
				}
			}
			return found == nil
		})
	}
	return clause, found
}

// receivesDone returns the Done call of a context that a select case's
// communication receives from, or nil.
func (m *builder) receivesDone(comm ast.Stmt) *ast.CallExpr {
	var e ast.Expr
	switch c := comm.(type) {
	case *ast.ExprStmt:
		e = c.X
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			e = c.Rhs[0]
		}
	}
	u, ok := analysisutil.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	call, ok := analysisutil.Unparen(u.X).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if fn := analysisutil.Callee(m.pass.TypesInfo, call); fn == nil || !analysisutil.IsMethod(fn, "context", "Context", "Done") {
		return nil
	}
	return call
}

// waitsOnStop reports whether call runs a function of this package, or a
// closure held in a local variable, that waits in a select with a case
// receiving from a stop kept outside it and returning: a channel field
// or package variable (`case <-w.closing: return false`), or the Done of
// a context held in a field (`case <-w.ctx.Done(): return w.ctx.Err()`).
// Another goroutine ends the wait by closing the channel or cancelling
// the context, and the result tells the caller so: a loop that uses the
// result is bounded by it, as by a stop case of its own.
func (m *builder) waitsOnStop(call *ast.CallExpr) bool {
	info := m.pass.TypesInfo
	if tv, ok := info.Types[call]; !ok || tv.IsVoid() {
		return false
	}
	var bodies []*ast.BlockStmt
	if fn := analysisutil.Callee(info, call); fn != nil {
		if d := m.vals.Decls[fn.Origin()]; d != nil && d.Body != nil {
			bodies = append(bodies, d.Body)
			// isClosed(stop): a select on the channel it is given, a
			// stop channel from outside the caller.
			params := fn.Origin().Type().(*types.Signature).Params()
			for i := range min(params.Len(), len(call.Args)) {
				p := params.At(i)
				if _, isChan := p.Type().Underlying().(*types.Chan); isChan && m.fromOutside(call.Args[i]) && m.selectsOnMemo(d.Body, p) {
					return true
				}
			}
		}
	} else if id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident); ok {
		if v, ok := info.Uses[id].(*types.Var); ok && isLocal(v) {
			for _, a := range m.vals.Assigns[v] {
				if lit, ok := analysisutil.Unparen(a.Value).(*ast.FuncLit); ok {
					bodies = append(bodies, lit.Body)
				}
			}
		}
	}
	for _, b := range bodies {
		if m.selectsOnStopMemo(b) {
			return true
		}
	}
	if m.stopWait(analysisutil.Callee(info, call)) {
		return true // one that returns what such a function returns, or of another package (StopWaitFact)
	}
	return false
}

// fromOutside reports whether the channel e is kept outside the function
// that uses it: a field, a package variable, or a parameter.
func (m *builder) fromOutside(e ast.Expr) bool {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.SelectorExpr:
		v, ok := m.pass.TypesInfo.Uses[x.Sel].(*types.Var)
		return ok && v.IsField()
	case *ast.Ident:
		v, ok := m.pass.TypesInfo.Uses[x].(*types.Var)
		if !ok {
			return false
		}
		if !isLocal(v) {
			return v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
		}
		return len(m.vals.Assigns[v]) == 0 // a parameter
	}
	return false
}

// selectsOnMemo is selectsOn, once per parameter.
func (m *builder) selectsOnMemo(body *ast.BlockStmt, p *types.Var) bool {
	if v, ok := m.paramStops[p]; ok {
		return v
	}
	if m.paramStops == nil {
		m.paramStops = map[*types.Var]bool{}
	}
	v := m.selectsOn(body, p)
	m.paramStops[p] = v
	return v
}

// selectsOn reports whether body has a select case receiving from the
// channel parameter p whose body returns.
func (m *builder) selectsOn(body *ast.BlockStmt, p *types.Var) bool {
	return returnsOnReceive(body, func(ch ast.Expr) bool {
		id, ok := analysisutil.Unparen(ch).(*ast.Ident)
		return ok && m.pass.TypesInfo.Uses[id] == p
	})
}

// returnsOnReceive reports whether body (not its closures) has a select
// case receiving from a channel that is(ch) and returning.
func returnsOnReceive(body *ast.BlockStmt, is func(ch ast.Expr) bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		cc, ok := n.(*ast.CommClause)
		if !ok || cc.Comm == nil {
			return true
		}
		ch := analysisutil.CommRecv(cc.Comm)
		if ch == nil || !is(ch) {
			return true
		}
		for _, st := range cc.Body {
			if _, ok := st.(*ast.ReturnStmt); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// selectsOnStop reports whether body has a select case receiving from a
// channel kept outside the function (a field, a package variable, the
// Done of a context in a field) whose body returns.
// selectsOnStopMemo is selectsOnStop, computed once per body.
func (m *builder) selectsOnStopMemo(b *ast.BlockStmt) bool {
	if m.stopMemo == nil {
		m.stopMemo = map[ast.Node]bool{}
	}
	v, ok := m.stopMemo[b]
	if !ok {
		v = m.selectsOnStop(b)
		m.stopMemo[b] = v
	}
	return v
}

func (m *builder) selectsOnStop(body *ast.BlockStmt) bool {
	info := m.pass.TypesInfo
	outside := func(e ast.Expr) bool {
		e = analysisutil.Unparen(e)
		if c, ok := e.(*ast.CallExpr); ok {
			// w.ctx.Done()
			fn := analysisutil.Callee(info, c)
			sel, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr)
			if !ok || !analysisutil.IsMethod(fn, "context", "Context", "Done") {
				return false
			}
			e = analysisutil.Unparen(sel.X)
		}
		switch x := e.(type) {
		case *ast.SelectorExpr:
			v, ok := info.Uses[x.Sel].(*types.Var)
			return ok && (v.IsField() || !isLocal(v))
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			return ok && !isLocal(v) && v.Parent() == v.Pkg().Scope()
		}
		return false
	}
	return returnsOnReceive(body, outside)
}

// flagStop reports whether ifs leaves the loop (its body returns or
// breaks) when state kept outside the function says so (stateCond).
func (m *builder) flagStop(ifs *ast.IfStmt) bool {
	if ifs.Init != nil || !leavesLoop(ifs.Body.List) {
		return false
	}
	return m.stateCond(ifs.Cond)
}

// switchStop reports whether sw returns from one of its cases when state
// kept outside the function says so: its tag reads that state (stateCond),
// directly or through the local its init statement sets
// (`switch s := c.State(); s { case Closed: return }`). A break there
// leaves only the switch.
func (m *builder) switchStop(sw *ast.SwitchStmt) bool {
	if sw.Tag == nil {
		return false
	}
	tag := sw.Tag
	if as, ok := sw.Init.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
		if l, ok := as.Lhs[0].(*ast.Ident); ok {
			if t, ok := analysisutil.Unparen(tag).(*ast.Ident); ok && m.pass.TypesInfo.ObjectOf(t) == m.pass.TypesInfo.ObjectOf(l) {
				tag = as.Rhs[0]
			}
		}
	} else if sw.Init != nil {
		return false
	}
	if !m.stateCond(tag) {
		return false
	}
	for _, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		if n := len(cc.Body); n > 0 {
			if _, ok := cc.Body[n-1].(*ast.ReturnStmt); ok && cc.List != nil {
				return true
			}
		}
	}
	return false
}

// leavesLoop reports whether a branch's statements end by leaving the loop:
// a return or a break.
func leavesLoop(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch last := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return last.Tok == token.BREAK
	}
	return false
}

// clockTested reports whether nodes test the clock: a condition or a
// comparison (`time.Since(start) > max`, `time.Now().After(deadline)`)
// reads time.Now, Since or Until, directly or through a local assigned
// from one (`elapsed := time.Since(start)`). A clock read for another use
// (a seed, a log line) bounds nothing.
func (m *builder) clockTested(nodes []ast.Node) bool {
	vars := m.clockVars(nodes)
	return anyIn(nodes, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt:
			return m.readsClock(x.Cond, vars)
		case *ast.ForStmt:
			return x.Cond != nil && m.readsClock(x.Cond, vars)
		case *ast.CaseClause:
			for _, e := range x.List {
				if m.readsClock(e, vars) {
					return true
				}
			}
		case *ast.BinaryExpr:
			switch x.Op {
			case token.LSS, token.GTR, token.LEQ, token.GEQ:
				return m.readsClock(x, vars)
			}
		}
		return false
	})
}

// clockVars returns the locals that nodes assign a clock reading.
func (m *builder) clockVars(nodes []ast.Node) map[types.Object]bool {
	info := m.pass.TypesInfo
	vars := map[types.Object]bool{}
	anyIn(nodes, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, r := range as.Rhs {
				if id, ok := as.Lhs[i].(*ast.Ident); ok && m.readsClock(r, nil) {
					if obj := info.ObjectOf(id); obj != nil {
						vars[obj] = true
					}
				}
			}
		}
		return false
	})
	return vars
}

// readsClock reports whether e calls time.Now, Since or Until, or reads
// one of vars.
func (m *builder) readsClock(e ast.Node, vars map[types.Object]bool) bool {
	info := m.pass.TypesInfo
	if _, ok := e.(*ast.FuncLit); ok {
		return false // its code runs when it is called, if at all
	}
	return analysisutil.AnyIn([]ast.Node{e}, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			fn := analysisutil.Callee(info, x)
			return analysisutil.IsFunc(fn, "time", "Since") || analysisutil.IsFunc(fn, "time", "Until") || analysisutil.IsFunc(fn, "time", "Now")
		case *ast.Ident:
			return vars[info.Uses[x]]
		}
		return false
	})
}

// cancelStop reports whether n is an if, or a case of a switch, that
// leaves the loop when an error is the context's cancellation
// (`errors.Is(err, context.Canceled)`, `err == context.Canceled`): the
// attempt was given a context, and its cancellation ends the loop as a
// check of ctx.Done() would.
func (m *builder) cancelStop(n ast.Node) bool {
	var test []ast.Expr
	var body []ast.Stmt
	switch x := n.(type) {
	case *ast.IfStmt:
		test, body = []ast.Expr{x.Cond}, x.Body.List
	case *ast.CaseClause:
		test, body = x.List, x.Body
	default:
		return false
	}
	if !leavesLoop(body) {
		return false
	}
	for _, e := range test {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if found {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if e, ok := n.(ast.Expr); ok {
				if analysisutil.IsPkgVar(analysisutil.ReferredObject(m.pass.TypesInfo, e), "context", "Canceled") {
					found = true
				}
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// condStop reports whether loop is a for loop whose own condition reads
// state kept outside the function (stateCond): `for attempt := 0;
// atomic.LoadUint32(&c.stop) == 0; attempt++` runs until Close sets the
// flag.
func (m *builder) condStop(loop ast.Stmt) bool {
	fs, ok := loop.(*ast.ForStmt)
	return ok && fs.Cond != nil && m.stateCond(fs.Cond)
}

// stateCond reports whether cond reads state kept outside the function and
// no local variable of its own: a struct field (p.closed,
// p.closedFlag.Load(), atomic.LoadUint32(&c.stop)), or a getter of the
// package that returns such a field (l.closed(): stateGetter). Another
// goroutine sets that field to end the loop.
func (m *builder) stateCond(cond ast.Expr) bool {
	info := m.pass.TypesInfo
	field, local := false, false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if len(x.Args) == 0 && m.stateGetter(analysisutil.Callee(info, x)) {
				field = true
				return false // the getter's receiver is the shared state
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
				field = true
				return false // the receiver of a field is the shared state
			}
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && isLocal(v) {
				local = true
			}
		case *ast.FuncLit:
			return false
		}
		return true
	}
	ast.Inspect(cond, visit)
	return field && !local
}

// StateGetterFact is exported for every method that is a state getter
// (stateGetter): a loop whose condition asks one, in any package (`for
// b.Ongoing()`, `for !l.closed()`), runs until the state it reads says
// to stop.
type StateGetterFact struct{}

func (*StateGetterFact) AFact() {}

func (*StateGetterFact) String() string { return "state getter" }

// exportStateGetters exports the facts of the package's state getters.
func (m *builder) exportStateGetters() {
	for fn := range m.vals.Decls {
		if m.stateGetter(fn) {
			m.pass.ExportObjectFact(fn, &StateGetterFact{})
		}
	}
}

// stateGetter reports whether fn is a method with no parameters and one
// result, a bool or a named integer or string type (a state of an enum:
// `c.state() == closed`; not a count), that reads a field of its receiver and writes none (`func
// (l *Listener) closed() bool { l.mu.Lock(); defer l.mu.Unlock(); return
// l.isClosed }`, `func (b *Backoff) Ongoing() bool { return b.ctx.Err() ==
// nil && b.tries < b.max }`): a question about shared state. A method of
// another package is known by its StateGetterFact.
func (m *builder) stateGetter(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	// A bool, or a state of an enum: a named integer or string type, or a
	// named comparable struct (its values the package's variables).
	res := sig.Results().At(0).Type()
	_, named := types.Unalias(res).(*types.Named)
	switch u := res.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsBoolean == 0 && (!named || u.Info()&(types.IsInteger|types.IsString) == 0) {
			return false
		}
	case *types.Struct:
		if !named || !types.Comparable(res) {
			return false
		}
	default:
		return false
	}
	if fn.Pkg() != nil && fn.Pkg() != m.pass.Pkg {
		var f StateGetterFact
		return m.pass.ImportObjectFact(fn.Origin(), &f)
	}
	d := m.vals.Decls[fn.Origin()]
	info := m.pass.TypesInfo
	recv := recvVar(info, d)
	if recv == nil || d.Body == nil {
		return false
	}
	onRecv := func(e ast.Expr) bool { return recvField(info, recv, e) != nil }
	reads, writes := false, false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if onRecv(l) {
					writes = true
				}
			}
		case *ast.IncDecStmt:
			if onRecv(x.X) {
				writes = true
			}
		case *ast.SelectorExpr:
			if onRecv(x) {
				reads = true
			}
		}
		return !writes
	})
	return reads && !writes
}
