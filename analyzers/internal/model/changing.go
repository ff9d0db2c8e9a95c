package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// findYields returns the yield parameters of the package's iterator
// functions: a function (declared or literal) whose only parameter is a
// function returning a bool and which returns nothing, the shape of
// iter.Seq and iter.Seq2. A loop that passes an outcome to yield hands it
// to the consumer.
func findYields(info *types.Info, files []*ast.File) map[types.Object]bool {
	yields := map[types.Object]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			var ft *ast.FuncType
			switch x := n.(type) {
			case *ast.FuncDecl:
				ft = x.Type
			case *ast.FuncLit:
				ft = x.Type
			default:
				return true
			}
			if ft.Results != nil && len(ft.Results.List) > 0 || ft.Params == nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) != 1 {
				return true
			}
			name := ft.Params.List[0].Names[0]
			obj := info.Defs[name]
			if obj == nil {
				return true
			}
			sig, ok := obj.Type().Underlying().(*types.Signature)
			if !ok || sig.Results().Len() != 1 {
				return true
			}
			if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
				yields[obj] = true
			}
			return true
		})
	}
	return yields
}

// startsFromInput reports whether the local v gets its first value,
// outside nodes (the loop), from something other than a constant: a
// field, a parameter, a call's result.
func (m *builder) startsFromInput(v *types.Var, nodes []ast.Node) bool {
	outside := 0
	for _, a := range m.vals.Assigns[v] {
		if inNodes(nodes, a.Pos) && !inForInit(nodes, a.Pos) {
			continue
		}
		if a.Value == nil {
			continue
		}
		if id, ok := a.Value.(*ast.Ident); ok && m.vals.ZeroDecl[id] {
			continue // var n int: the zero value, a constant start
		}
		outside++
		if tv, ok := m.pass.TypesInfo.Types[a.Value]; ok && tv.Value != nil {
			return false
		}
	}
	return outside > 0
}

// inForInit reports whether pos is in the init statement of a for loop
// among nodes (`for port := from; ...`): run once, before the passes.
func inForInit(nodes []ast.Node, pos token.Pos) bool {
	for _, n := range nodes {
		if fs, ok := n.(*ast.ForStmt); ok && fs.Init != nil && fs.Init.Pos() <= pos && pos <= fs.Init.End() {
			return true
		}
	}
	return false
}

// neverSameInput reports whether the loop remembers the input of a failed
// attempt (`lastIdx = idx`) and leaves when the next pass would try that
// same input again (`if idx == lastIdx { return }`): every pass it goes
// round with tries a new input, read afresh, so it never repeats a
// request: it follows a changing state rather than retrying.
func (m *builder) neverSameInput(nodes []ast.Node, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	// The variables passed as an operation's argument, gathered once so
	// that each assignment of the loop asks in constant time.
	opArgs := map[types.Object]bool{}
	for _, call := range ops {
		for _, a := range call.Args {
			if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok {
				opArgs[info.Uses[id]] = true
			}
		}
	}
	inOp := func(obj types.Object) bool { return opArgs[obj] }
	remembers := map[[2]types.Object]bool{} // {input, its copy}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i := range as.Lhs {
				l, lok := analysisutil.Unparen(as.Lhs[i]).(*ast.Ident)
				r, rok := analysisutil.Unparen(as.Rhs[i]).(*ast.Ident)
				if lok && rok && info.Uses[l] != nil && inOp(info.Uses[r]) {
					remembers[[2]types.Object{info.Uses[r], info.Uses[l]}] = true
				}
			}
			return true
		})
	}
	if len(remembers) == 0 {
		return false
	}
	found := false
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			ifs, ok := n.(*ast.IfStmt)
			if !ok || found {
				return !found
			}
			be, ok := analysisutil.Unparen(ifs.Cond).(*ast.BinaryExpr)
			if !ok || be.Op != token.EQL || len(ifs.Body.List) == 0 || !leaves(info, ifs.Body.List[len(ifs.Body.List)-1], "", false) {
				return true
			}
			x, xok := analysisutil.Unparen(be.X).(*ast.Ident)
			y, yok := analysisutil.Unparen(be.Y).(*ast.Ident)
			if xok && yok {
				a, b := info.Uses[x], info.Uses[y]
				found = remembers[[2]types.Object{a, b}] || remembers[[2]types.Object{b, a}]
			}
			return !found
		})
	}
	return found
}

// stateChanged reports whether a method of this package called in the loop
// writes a field of its receiver that another method called in the loop
// reads: `if !t.recoversFrom(err) { return }` switches t.link, and the next
// pass's `t.planRequest()` builds its request from it. Each pass sends a
// request made from the state the failure changed, a fallback rather than
// a retry of the same request.
func (m *builder) stateChanged(nodes []ast.Node, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	// The methods of this package whose results feed an operation's
	// arguments, directly or through a local variable set in the loop.
	feeds := map[*ast.FuncDecl]bool{}
	// expanded holds the least depth at which a variable's values were
	// followed: following them again from as deep or deeper finds nothing
	// new, so each variable is followed at most once per depth (linear,
	// however many uses and writes it has).
	expanded := map[*types.Var]int{}
	var feed func(e ast.Expr, depth int)
	feed = func(e ast.Expr, depth int) {
		if depth > 3 {
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if fn := analysisutil.Callee(info, x); fn != nil {
					if d := m.vals.Decls[fn.Origin()]; d != nil {
						feeds[d] = true
					}
				}
			case *ast.Ident:
				if v, ok := info.Uses[x].(*types.Var); ok && isLocal(v) {
					if d, ok := expanded[v]; ok && d <= depth {
						return true
					}
					expanded[v] = depth
					for _, a := range m.vals.Assigns[v] {
						if a.Value != nil && inNodes(nodes, a.Pos) {
							feed(a.Value, depth+1)
						}
					}
				}
			}
			return true
		})
	}
	for _, call := range ops {
		for _, a := range call.Args {
			feed(a, 0)
		}
	}
	if len(feeds) == 0 {
		return false
	}
	var methods []*ast.FuncDecl
	seen := map[*ast.FuncDecl]bool{}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok {
				if fn := analysisutil.Callee(info, c); fn != nil {
					if d := m.vals.Decls[fn.Origin()]; d != nil && d.Recv != nil && d.Body != nil && !seen[d] {
						seen[d] = true
						methods = append(methods, d)
					}
				}
			}
			return true
		})
	}
	if len(methods) < 2 {
		return false
	}
	// fields returns the fields of its receiver that d writes or reads.
	fields := func(d *ast.FuncDecl) (writes, reads map[types.Object]bool) {
		writes, reads = map[types.Object]bool{}, map[types.Object]bool{}
		recv := recvVar(info, d)
		if recv == nil {
			return
		}
		onRecv := func(e ast.Expr) types.Object { return recvField(info, recv, e) }
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if f := onRecv(l); f != nil {
						writes[f] = true
					}
				}
			case *ast.SelectorExpr:
				if f := onRecv(x); f != nil {
					reads[f] = true
				}
			}
			return true
		})
		return
	}
	type rw struct{ writes, reads map[types.Object]bool }
	all := make([]rw, len(methods))
	for i, d := range methods {
		all[i].writes, all[i].reads = fields(d)
	}
	for i := range all {
		for f := range all[i].writes {
			for j := range all {
				if j != i && feeds[methods[j]] && all[j].reads[f] && !all[j].writes[f] {
					return true
				}
			}
		}
	}
	return false
}

// takesNext reports whether an operation of the loop is given a value
// taken in the same pass from a queue: received from a channel
// (`v := <-ch`), indexed off a local slice the loop re-slices (`a :=
// queue[0]; queue = queue[1:]`), or returned by a method of this package
// that pops it off a field of its receiver (`r := c.buffer[0]; c.buffer =
// c.buffer[1:]`).
// A pass whose operation fails drops that value and takes the next: a
// consumer working through its input, not a retry of the same request.
func (m *builder) takesNext(nodes []ast.Node, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	// The local queues the loop takes values off: q = q[1:], q = q[:n-1].
	queues := map[types.Object]bool{}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == len(as.Rhs) {
				for i, l := range as.Lhs {
					id, ok := analysisutil.Unparen(l).(*ast.Ident)
					sl, sok := analysisutil.Unparen(as.Rhs[i]).(*ast.SliceExpr)
					if !ok || !sok || sl.Low == nil && sl.High == nil {
						continue
					}
					if x, ok := analysisutil.Unparen(sl.X).(*ast.Ident); ok && info.Uses[x] != nil && info.Uses[x] == info.Uses[id] {
						queues[info.Uses[id]] = true
					}
				}
			}
			return true
		})
	}
	taken := map[types.Object]bool{}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
				return true
			}
			id, ok := analysisutil.Unparen(as.Lhs[0]).(*ast.Ident)
			if !ok {
				return true
			}
			obj := info.ObjectOf(id)
			if obj == nil {
				return true
			}
			switch x := analysisutil.Unparen(as.Rhs[0]).(type) {
			case *ast.UnaryExpr:
				if x.Op == token.ARROW {
					taken[obj] = true
				}
			case *ast.CallExpr:
				if fn := analysisutil.Callee(info, x); fn != nil && m.pops(m.vals.Decls[fn.Origin()]) {
					taken[obj] = true
				}
			case *ast.IndexExpr:
				if q, ok := analysisutil.Unparen(x.X).(*ast.Ident); ok && queues[info.Uses[q]] {
					taken[obj] = true
				}
			}
			return true
		})
	}
	if len(taken) == 0 {
		return false
	}
	for _, call := range ops {
		for _, a := range call.Args {
			if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok && taken[info.Uses[id]] {
				return true
			}
		}
	}
	return false
}

// pops reports whether the method d takes a value off a field of its
// receiver: it sets the field to a slice of itself (`c.buffer =
// c.buffer[1:]`).
func (m *builder) pops(d *ast.FuncDecl) bool {
	info := m.pass.TypesInfo
	recv := recvVar(info, d)
	if recv == nil || d.Body == nil {
		return false
	}
	if v, ok := m.popsMemo[d]; ok {
		return v
	}
	field := func(e ast.Expr) types.Object { return recvField(info, recv, e) }
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				if f := field(l); f != nil {
					if sl, ok := analysisutil.Unparen(as.Rhs[i]).(*ast.SliceExpr); ok && sl.Low != nil && field(sl.X) == f {
						found = true
					}
				}
			}
		}
		return !found
	})
	if m.popsMemo == nil {
		m.popsMemo = map[*ast.FuncDecl]bool{}
	}
	m.popsMemo[d] = found
	return found
}

// recvVar returns the receiver variable of the method d, or nil (not a
// method, or an unnamed receiver).
func recvVar(info *types.Info, d *ast.FuncDecl) types.Object {
	if d == nil || d.Recv == nil || len(d.Recv.List) == 0 || len(d.Recv.List[0].Names) == 0 {
		return nil
	}
	return info.Defs[d.Recv.List[0].Names[0]]
}

// recvField returns the field of recv that e selects (recv.f), or nil.
func recvField(info *types.Info, recv types.Object, e ast.Expr) types.Object {
	sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); !ok || info.Uses[id] != recv {
		return nil
	}
	if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
		return s.Obj()
	}
	return nil
}

// picksUntilEmpty reports whether each pass takes its candidate from a
// call, leaves when the call has none left, and hands each candidate
// back after its operation (`addr := p.pick(); if addr == "" { return
// err }; ...fetch(addr)...; p.markDown(addr)`): a fail-over over a pool
// that the failures drain, not a retry of one request.
func (m *builder) picksUntilEmpty(in *interp, stmt ast.Stmt, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	var body *ast.BlockStmt
	switch s := stmt.(type) {
	case *ast.ForStmt:
		body = s.Body
	case *ast.RangeStmt:
		body = s.Body
	}
	if body == nil || len(body.List) < 3 {
		return false
	}
	as, ok := body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	pick, ok := analysisutil.Unparen(as.Rhs[0]).(*ast.CallExpr)
	id, isID := as.Lhs[0].(*ast.Ident)
	if !ok || !isID || in.isOp(pick) {
		return false
	}
	x := info.Defs[id]
	if x == nil {
		return false
	}
	// if addr == "" { return err }: the pool has none left.
	ifs, ok := body.List[1].(*ast.IfStmt)
	if !ok || ifs.Init != nil || !leavesLoop(ifs.Body.List) {
		return false
	}
	be, ok := analysisutil.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL {
		return false
	}
	zero := func(e ast.Expr) bool {
		tv := info.Types[e]
		return tv.IsNil() || tv.Value != nil && (tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == "" ||
			tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0)
	}
	isX := func(e ast.Expr) bool {
		i, ok := analysisutil.Unparen(e).(*ast.Ident)
		return ok && info.Uses[i] == x
	}
	if !(isX(be.X) && zero(be.Y) || isX(be.Y) && zero(be.X)) {
		return false
	}
	nodes := []ast.Node{body}
	takes := func(call *ast.CallExpr) bool {
		found := false
		for _, a := range call.Args {
			ast.Inspect(a, func(n ast.Node) bool {
				if e, ok := n.(*ast.Ident); ok && (isX(e) || m.derivedVia(e, x, nodes)) {
					found = true
				}
				return !found
			})
		}
		return found
	}
	if !slices.ContainsFunc(ops, takes) {
		return false
	}
	// p.markDown(addr): the candidate handed back, by a call that is no
	// operation of its own.
	back := false
	for _, st := range body.List[2:] {
		ast.Inspect(st, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok || back {
				return false
			}
			if es, ok := n.(*ast.ExprStmt); ok {
				if c, ok := analysisutil.Unparen(es.X).(*ast.CallExpr); ok && !in.isOp(c) && !slices.Contains(ops, c) && takes(c) {
					back = true
				}
			}
			return true
		})
	}
	return back
}

// advancedByCond reports whether stmt is a for loop whose condition is a
// call of a method with no arguments that returns a bool alone (`for
// sc.Scan()`, `for it.Next()`), and an operation of the loop is given
// what a method of the same value returns, with no arguments, in the
// pass (`c.Lookup(sc.Text())`): the condition advanced the value to its
// next item, and each pass works on that item. A failure goes round to
// the next one: an iteration, not a retry of the same request.
func (m *builder) advancedByCond(stmt ast.Stmt, nodes []ast.Node, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	fs, ok := stmt.(*ast.ForStmt)
	if !ok || fs.Cond == nil {
		return false
	}
	cond, ok := analysisutil.Unparen(fs.Cond).(*ast.CallExpr)
	if !ok || len(cond.Args) != 0 {
		return false
	}
	sel, ok := analysisutil.Unparen(cond.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	sig, ok := info.TypeOf(cond.Fun).(*types.Signature)
	if !ok || info.Selections[sel] == nil || info.Selections[sel].Kind() != types.MethodVal || sig.Results().Len() != 1 || !analysisutil.IsBool(sig.Results().At(0).Type()) {
		return false
	}
	recv := analysisutil.ReferredObject(info, sel.X)
	if recv == nil {
		return false
	}
	// item reports whether e is a call of a method of recv with no
	// arguments that returns one value, no error (sc.Text()).
	item := func(e ast.Node) bool {
		c, ok := e.(*ast.CallExpr)
		if !ok || len(c.Args) != 0 {
			return false
		}
		s, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok || info.Selections[s] == nil || analysisutil.ReferredObject(info, s.X) != recv {
			return false
		}
		t := info.TypeOf(c)
		if t == nil {
			return false
		}
		if _, tuple := t.(*types.Tuple); tuple {
			return false
		}
		return !analysisutil.IsErrorType(t) && !analysisutil.IsBool(t)
	}
	// The pass's locals made from the item (`f :=
	// strings.Fields(sc.Text())`), in the order they are assigned.
	fromItem := map[types.Object]bool{}
	mentionsItem := func(e ast.Node) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if item(n) {
				found = true
			}
			if id, ok := n.(*ast.Ident); ok && fromItem[info.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
				for i, l := range as.Lhs {
					if id, ok := analysisutil.Unparen(l).(*ast.Ident); ok && mentionsItem(as.Rhs[i]) {
						if obj := info.ObjectOf(id); obj != nil {
							fromItem[obj] = true
						}
					}
				}
			}
			return true
		})
	}
	for _, call := range ops {
		for _, a := range call.Args {
			if mentionsItem(a) {
				return true
			}
		}
	}
	return false
}
