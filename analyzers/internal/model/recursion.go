package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// findRecursions recognizes retries written as recursion: a function
// that, on a path where one of its operations failed, calls itself again
// (`if err != nil && attempts > 1 { time.Sleep(d); return f(ctx,
// attempts-1) }`). The retry site is the self-call; one attempt is the
// function's body. The attempt bound is the caller's, so it is unknown
// here; the recursion counts as bounded when it passes a parameter
// changed by one and tests that parameter on the way to the self-call.
// decl is d's cursor.
func (m *builder) findRecursions(d *ast.FuncDecl, decl inspector.Cursor) {
	info := m.pass.TypesInfo
	fn, ok := info.Defs[d.Name].(*types.Func)
	if !ok || d.Body == nil {
		return
	}
	// The error variables that hold an operation's result.
	in := m.newInterp()
	opErrs := map[types.Object]bool{}
	opResps := map[types.Object]bool{} // responses an operation returned
	opVals := map[types.Object]bool{}  // every other value it returned
	firstOp := d.Body.End()            // where the first attempt's first operation is
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Rhs) != 1 {
				return true
			}
			call, ok := analysisutil.Unparen(n.Rhs[0]).(*ast.CallExpr)
			if !ok || !in.isOp(call) || isSelfCall(info, call, fn) {
				return true
			}
			res := in.results(call)
			for i, l := range n.Lhs {
				if i < len(res) && analysisutil.IsErrorType(res[i]) {
					if obj := in.objOf(l); obj != nil {
						opErrs[obj] = true
						firstOp = min(firstOp, n.Pos())
					}
				}
				if i < len(res) && isHTTPResponse(analysisutil.Deref(res[i])) {
					if obj := in.objOf(l); obj != nil {
						opResps[obj] = true
					}
				}
				if i < len(res) && !analysisutil.IsErrorType(res[i]) {
					if obj := in.objOf(l); obj != nil {
						opVals[obj] = true
					}
				}
			}
		}
		return true
	})
	if len(opErrs) == 0 {
		return
	}
	// One retry per function: every self-call on a failure path is its
	// next attempt. The retry site is the first; it is bounded when every
	// self-call counts down, and its count is the caller's when they all
	// count the same parameter the same way.
	var r *Retry
	var selfCalls []*ast.CallExpr
	bounded := true
	fallback := true   // every self-call clears its guard first
	identified := true // every self-call follows an identified failure
	body := decl.ChildAt(edge.FuncDecl_Body, -1)
	closures := selfCallingClosures(info, body, fn)
	// selfCall judges one self-call reached through path; guard is the
	// path to the statement that runs it in this function's body (the
	// self-call, or the call of the closure that makes it).
	selfCall := func(call *ast.CallExpr, path, guard *callPath, lit *ast.FuncLit) {
		if !failureGuarded(info, guard, opErrs) && !in.fieldGuarded(guard, opVals) && !statusGuarded(info, m.vals.Decls, guard, opResps) || !sameRequest(info, call, fn, path) || in.nextPosition(d.Body, call, fn) || reassignedArg(info, d.Body, path, call, fn) {
			return
		}
		this := &Retry{CountParam: -1}
		selfCalls = append(selfCalls, call)
		cleared := clearsGuard(info, path)
		fallback = fallback && cleared
		bounded = bounded && (countsDown(info, path, call, fn, this, firstOp) || cleared)
		identified = identified && in.identifiedGuard(guard, opErrs)
		if r == nil {
			r = &Retry{Kind: RecursiveRetry, Node: call, Pos: call.Fun.Pos(), End: call.Fun.End(), Ops: []ast.Node{d.Body}}
			r.CountParam, r.CountSign, r.CountOffset = this.CountParam, this.CountSign, this.CountOffset
		} else {
			if this.CountParam != r.CountParam || this.CountSign != r.CountSign || this.CountOffset != r.CountOffset {
				r.CountParam = -1
			}
			m.covered[call] = r
		}
		if lit != nil && !slices.Contains(r.Ops, ast.Node(lit.Body)) {
			r.Ops = append(r.Ops, lit.Body) // the closure runs in place
		}
	}
	body.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.CallExpr)(nil)}, func(c inspector.Cursor) bool {
		call, ok := c.Node().(*ast.CallExpr)
		if !ok {
			return false // a closure: judged where it is called
		}
		if isSelfCall(info, call, fn) {
			here := &callPath{leaf: c, top: body}
			selfCall(call, here, here, nil)
			return true
		}
		// retry(err), retry := func(err error) (T, error) { ...; return
		// f(x, n-1) }: the closure's self-calls run where it is called.
		if id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident); ok {
			if sc := closures[info.Uses[id]]; sc != nil {
				here := &callPath{leaf: c, top: body}
				for _, inner := range sc.calls {
					selfCall(inner.Node().(*ast.CallExpr), &callPath{leaf: inner, top: sc.body, next: here}, here, sc.lit)
				}
			}
		}
		return true
	})
	if r == nil {
		return
	}
	r.CountBounded = bounded
	r.Fallback = fallback
	if !bounded {
		r.CountParam = -1
	}
	r.stepped = steppedParams(info, fn, selfCalls)
	m.findDelays(r, d.Body)
	r.Immediate = !anyIn(r.Ops, in.waitsHere)
	r.Identified = identified
	r.ImmediateIdentified = r.Immediate && identified
	r.TimeBounded = m.timeBounded(r.Ops, nil)
	m.add(r)
}

// steppedParams returns the parameters of fn that every self-call passes
// on stepped by a constant (`try+1`, `n-1`): counters of the attempts,
// whether or not anything bounds them.
func steppedParams(info *types.Info, fn *types.Func, calls []*ast.CallExpr) []*types.Var {
	params := fn.Type().(*types.Signature).Params()
	var out []*types.Var
	for i := range params.Len() {
		p := params.At(i)
		all := len(calls) > 0
		for _, c := range calls {
			if i >= len(c.Args) {
				all = false
				break
			}
			b, ok := analysisutil.Unparen(c.Args[i]).(*ast.BinaryExpr)
			if !ok || b.Op != token.ADD && b.Op != token.SUB {
				all = false
				break
			}
			id, ok := analysisutil.Unparen(b.X).(*ast.Ident)
			if !ok || info.Uses[id] != p || info.Types[b.Y].Value == nil {
				all = false
				break
			}
		}
		if all {
			out = append(out, p)
		}
	}
	return out
}

func isSelfCall(info *types.Info, call *ast.CallExpr, fn *types.Func) bool {
	callee := analysisutil.Callee(info, call)
	return callee != nil && callee.Origin() == fn
}

// failureGuarded reports whether the node at the end of path runs only
// after an operation failed: inside the body of an if whose condition
// tests one of opErrs against nil (err != nil) or passes it to a
// predicate, or after an `if err == nil { return ... }` in an enclosing
// block.
func failureGuarded(info *types.Info, path *callPath, opErrs map[types.Object]bool) bool {
	mentionsErr := func(e ast.Node) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && opErrs[info.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	node := path.leaf.Node()
	for parent, child := range path.up {
		switch p := parent.(type) {
		case *ast.IfStmt:
			if child == p.Body && mentionsErr(p.Cond) && !testsSuccess(info, p.Cond) {
				// On a lost optimistic-concurrency race the call is made
				// again on state read anew: not a retry of a failure.
				return !testsConflict(info, p.Cond)
			}
		case *ast.BlockStmt:
			for _, st := range p.List {
				if st.Pos() >= node.Pos() {
					break
				}
				// Past `if err == nil { return }` (or `err == nil ||
				// attempt >= 4`) the call failed; past `err == nil &&
				// attempt >= 4` it may have succeeded.
				if ifs, ok := st.(*ast.IfStmt); ok && mentionsErr(ifs.Cond) && falseMeansFailure(info, ifs.Cond) && endsInReturn(ifs.Body) {
					return true
				}
			}
		}
	}
	return false
}

func endsInReturn(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok
}

// countsDown reports whether the self-call passes one of fn's parameters
// changed by one (attempts-1, attempt+1) and an enclosing condition tests
// that parameter: the recursion has a bound.
func countsDown(info *types.Info, path *callPath, call *ast.CallExpr, fn *types.Func, r *Retry, firstOp token.Pos) bool {
	params := fn.Type().(*types.Signature).Params()
	paramIndex := func(obj types.Object) int {
		for i := range params.Len() {
			if params.At(i) == obj {
				return i
			}
		}
		return -1
	}
	var counter types.Object
	var step token.Token
	for i, a := range call.Args {
		be, ok := analysisutil.Unparen(a).(*ast.BinaryExpr)
		if !ok || be.Op != token.ADD && be.Op != token.SUB {
			continue
		}
		tv := info.Types[be.Y]
		if tv.Value == nil || tv.Value.String() != "1" {
			continue
		}
		if id, ok := analysisutil.Unparen(be.X).(*ast.Ident); ok && paramIndex(info.Uses[id]) == i {
			counter = info.Uses[id]
			step = be.Op
		}
	}
	if counter == nil {
		counter, step = countedBefore(info, path, call, paramIndex)
	}
	if counter == nil {
		return false
	}
	// The attempts a constant first argument n gives, from the guard
	// `p > K` (counting down) or `p < K` (counting up).
	setCount := func(be *ast.BinaryExpr) {
		id, ok := analysisutil.Unparen(be.X).(*ast.Ident)
		if !ok || info.Uses[id] != counter {
			return
		}
		tv := info.Types[be.Y]
		if tv.Value == nil {
			return
		}
		k, ok := constant.Int64Val(constant.ToInt(tv.Value))
		if !ok {
			return
		}
		op := be.Op
		if op == token.NEQ && step == token.SUB {
			// p != K counted down by one: p > K from a start above K
			// (`if left == 0 { return err }`).
			op = token.GTR
		}
		switch {
		case step == token.SUB && op == token.GTR:
			r.CountSign, r.CountOffset = 1, 1-k
		case step == token.SUB && op == token.GEQ:
			r.CountSign, r.CountOffset = 1, 2-k
		case step == token.ADD && op == token.LSS:
			r.CountSign, r.CountOffset = -1, k+1
		case step == token.ADD && op == token.LEQ:
			r.CountSign, r.CountOffset = -1, k+2
		default:
			return
		}
		r.CountParam = paramIndex(counter)
	}
	// tests reports whether cond compares the counter; with negate, cond
	// is an exit guard (`if p <= 0 { return }`), so the self-call runs
	// when it is false.
	tests := func(cond ast.Expr, negate bool) bool {
		tested := false
		// Past an exit guard every disjunct is false (`err == nil ||
		// attempt >= 4`): each comparison among them holds negated.
		disjuncts := analysisutil.Split(cond, token.LOR)
		ast.Inspect(cond, func(n ast.Node) bool {
			if be, ok := n.(*ast.BinaryExpr); ok {
				switch be.Op {
				case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
					for _, side := range []ast.Expr{be.X, be.Y} {
						if id, ok := analysisutil.Unparen(side).(*ast.Ident); ok && info.Uses[id] == counter {
							tested = true
							if !negate {
								setCount(be)
							} else if op, ok := negated[be.Op]; ok && slices.Contains(disjuncts, ast.Expr(be)) {
								setCount(&ast.BinaryExpr{X: be.X, Op: op, Y: be.Y})
							}
						}
					}
				}
			}
			return !tested
		})
		return tested
	}
	node := path.leaf.Node()
	for parent, child := range path.up {
		switch p := parent.(type) {
		case *ast.IfStmt:
			if child == p.Body && tests(p.Cond, false) {
				return true
			}
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			// An exit guard earlier in an enclosing block, or in the
			// case of a switch or select: `if retries <= 0 { return
			// err }` before the self-call.
			for _, st := range analysisutil.StmtList(p) {
				if st.Pos() >= node.Pos() {
					break
				}
				if ifs, ok := st.(*ast.IfStmt); ok && ifs.Else == nil && endsInReturn(ifs.Body) && tests(ifs.Cond, true) {
					if ifs.End() <= firstOp && r.CountParam >= 0 {
						// The guard comes before the attempt (`if left
						// <= 0 { return }; err := call()`): the call
						// that fails it makes none.
						r.CountOffset--
					}
					return true
				}
			}
		}
	}
	return false
}

// negated maps a comparison to the one that holds when it does not.
var negated = map[token.Token]token.Token{
	token.LSS: token.GEQ, token.LEQ: token.GTR, token.GTR: token.LEQ, token.GEQ: token.LSS, token.EQL: token.NEQ,
}

// sameRequest reports whether the self-call repeats the same request:
// every argument is the function's own parameter at that position, or
// that parameter changed by one (the attempt counter), or, for an error
// parameter, nil or a new error made from something else (the last
// failure, kept to be returned: freshError). A call with a new request, an unwrapped
// error or the next node is recursion over changing input, not a retry.
func sameRequest(info *types.Info, call *ast.CallExpr, fn *types.Func, path *callPath) bool {
	params := fn.Type().(*types.Signature).Params()
	if len(call.Args) != params.Len() || call.Ellipsis.IsValid() {
		return false
	}
	for i, a := range call.Args {
		if analysisutil.IsErrorType(params.At(i).Type()) && freshError(info, a, params.At(i)) {
			// The last failure, carried along to be returned: nothing
			// sent changes.
			continue
		}
		if tv := info.Types[a]; tv.Value != nil && tv.Value.Kind() == constant.Bool && testedAs(info, path, params.At(i), constant.BoolVal(tv.Value)) {
			// `if refresh { ...; return f(x, true) }`: the flag passed
			// as the value the path found it to hold.
			continue
		}
		e := analysisutil.Unparen(a)
		if be, ok := e.(*ast.BinaryExpr); ok && (be.Op == token.ADD || be.Op == token.SUB) {
			if tv := info.Types[be.Y]; tv.Value != nil && tv.Value.String() == "1" {
				e = analysisutil.Unparen(be.X)
			}
		}
		id, ok := e.(*ast.Ident)
		if !ok || info.Uses[id] != params.At(i) {
			return false
		}
	}
	return true
}

// nextPosition reports whether the self-call passes a parameter changed
// by one (i+1) that indexes an operation's input in body (r.addrs[i]):
// each call goes to the next candidate, a search rather than a retry.
func (in *interp) nextPosition(body *ast.BlockStmt, call *ast.CallExpr, fn *types.Func) bool {
	params := fn.Type().(*types.Signature).Params()
	stepped := map[types.Object]bool{}
	for i, a := range call.Args {
		if be, ok := analysisutil.Unparen(a).(*ast.BinaryExpr); ok && (be.Op == token.ADD || be.Op == token.SUB) && i < params.Len() {
			if id, ok := analysisutil.Unparen(be.X).(*ast.Ident); ok && in.info.Uses[id] == params.At(i) {
				stepped[params.At(i)] = true
			}
		}
	}
	if len(stepped) == 0 {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		op, ok := n.(*ast.CallExpr)
		if !ok || !in.isOp(op) || op == call {
			return true
		}
		for _, a := range op.Args {
			ast.Inspect(a, func(n ast.Node) bool {
				if ix, ok := n.(*ast.IndexExpr); ok {
					ast.Inspect(ix.Index, func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok && stepped[in.info.Uses[id]] {
							found = true
						}
						return !found
					})
				}
				return !found
			})
		}
		return !found
	})
	return found
}

// selfCalling is a closure held in a local variable that calls the
// enclosing function: its body's cursor and its self-calls'.
type selfCalling struct {
	lit   *ast.FuncLit
	body  inspector.Cursor
	calls []inspector.Cursor
}

// A callPath is the syntax from a function's body down to a call: the
// call's cursor (leaf) up to top, and, for a call inside a closure run
// in place, on from where the closure is called (next).
type callPath struct {
	leaf, top inspector.Cursor
	next      *callPath
}

// up yields each node on p above its leaf, innermost first, with its
// child on p: from the leaf up to top, then, through a closure, from the
// call of the closure (whose child is the closure's body) up.
func (p *callPath) up(yield func(parent, child ast.Node) bool) {
	var below ast.Node // the top of the segment under this one
	for s := p; s != nil; s = s.next {
		c := s.leaf
		if below != nil && !yield(c.Node(), below) {
			return
		}
		for c != s.top {
			parent := c.Parent()
			if !yield(parent.Node(), c.Node()) {
				return
			}
			c = parent
		}
		below = s.top.Node()
	}
}

// selfCallingClosures finds the local variables of body (a cursor)
// defined once as a closure (`retry := func(err error) (T, error) { ...
// }`) that nothing assigns again, whose body calls fn.
func selfCallingClosures(info *types.Info, body inspector.Cursor, fn *types.Func) map[types.Object]*selfCalling {
	out := map[types.Object]*selfCalling{}
	reassigned := map[types.Object]bool{}
	for asCur := range body.Preorder((*ast.AssignStmt)(nil)) {
		as := asCur.Node().(*ast.AssignStmt)
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				continue
			}
			if as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				if obj := info.Uses[id]; obj != nil {
					reassigned[obj] = true
				}
				continue
			}
			lit, ok := analysisutil.Unparen(as.Rhs[i]).(*ast.FuncLit)
			obj := info.Defs[id]
			if !ok || obj == nil {
				if obj := info.Uses[id]; obj != nil {
					reassigned[obj] = true
				}
				continue
			}
			litCur := asCur.ChildAt(edge.AssignStmt_Rhs, i)
			for litCur.Node() != ast.Node(lit) {
				litCur = litCur.ChildAt(edge.ParenExpr_X, -1) // (func() { ... })
			}
			c := &selfCalling{lit: lit, body: litCur.ChildAt(edge.FuncLit_Body, -1)}
			c.body.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.CallExpr)(nil)}, func(cur inspector.Cursor) bool {
				call, ok := cur.Node().(*ast.CallExpr)
				if !ok {
					return false // a closure of its own
				}
				if isSelfCall(info, call, fn) {
					c.calls = append(c.calls, cur)
				}
				return true
			})
			if len(c.calls) > 0 {
				out[obj] = c
			}
		}
	}
	for obj := range reassigned {
		delete(out, obj)
	}
	return out
}

// countedBefore finds a parameter passed as itself at its own position
// after an enclosing block stepped it by one (`attempts--` then
// `return f(x, attempts)`), and the step: the first step in the
// outermost block that has one.
func countedBefore(info *types.Info, path *callPath, call *ast.CallExpr, paramIndex func(types.Object) int) (types.Object, token.Token) {
	for i, a := range call.Args {
		id, ok := analysisutil.Unparen(a).(*ast.Ident)
		if !ok || paramIndex(info.Uses[id]) != i {
			continue
		}
		obj := info.Uses[id]
		step := token.ILLEGAL
		for n := range path.up {
			b, ok := n.(*ast.BlockStmt)
			if !ok {
				continue
			}
			for _, st := range b.List {
				if st.Pos() >= call.Pos() {
					break
				}
				if inc, ok := st.(*ast.IncDecStmt); ok {
					if x, ok := analysisutil.Unparen(inc.X).(*ast.Ident); ok && info.Uses[x] == obj {
						// Innermost first: an outer block's step
						// replaces an inner one's.
						step = token.ADD
						if inc.Tok == token.DEC {
							step = token.SUB
						}
						break
					}
				}
			}
		}
		if step != token.ILLEGAL {
			return obj, step
		}
	}
	return nil, token.ILLEGAL
}
