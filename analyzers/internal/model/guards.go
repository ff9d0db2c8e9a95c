package model

// The guards of a recursive retry's self-call: whether they identify
// the failure, test a conflict, a success or an error carried in a
// result, and what the path knows of the arguments it passes.

import (
	"go/ast"
	gconst "go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// identifiedGuard reports whether the call at the end of path runs only
// on the true branch of a test that picks out one failure of opErrs: an
// if or a case whose condition, or one of its conjuncts, compares the
// error with an error value or tests its type (err == errChunked,
// errors.Is, errors.As, errors.AsType).
func (in *interp) identifiedGuard(path *callPath, opErrs map[types.Object]bool) bool {
	for parent, child := range path.up {
		switch p := parent.(type) {
		case *ast.IfStmt:
			if child == p.Body && (in.identifies(p.Cond, opErrs) || in.condIdentifies(p.Cond, opErrs)) {
				return true
			}
		case *ast.CaseClause:
			if slices.ContainsFunc(p.List, func(e ast.Expr) bool { return in.identifies(e, opErrs) || in.condIdentifies(e, opErrs) }) {
				return true
			}
		}
	}
	return false
}

// condIdentifies reports whether cond, judged as a loop's condition is
// (cond.go), holds only where it identified the failure of an error in
// opErrs: by its text, a classifier of the package (IdentifyFact), a
// comparison with an error value.
func (in *interp) condIdentifies(cond ast.Expr, opErrs map[types.Object]bool) bool {
	s := &state{}
	for obj := range opErrs {
		s.setSlot(slot{key: obj})
	}
	budget, steps, aborted := in.budget, in.steps, in.aborted
	in.budget, in.aborted = stepsPerNode*10, false
	ts, _ := in.cond(cond, s)
	ok := !in.aborted && len(ts) > 0
	for _, t := range ts {
		ok = ok && t.identified
	}
	in.budget, in.steps, in.aborted = budget, steps, aborted
	return ok
}

// identifies reports whether cond, or a conjunct of it, is true only for
// one kind of failure of an error in opErrs.
func (in *interp) identifies(cond ast.Expr, opErrs map[types.Object]bool) bool {
	isErr := func(e ast.Expr) bool {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		return ok && opErrs[in.info.Uses[id]]
	}
	switch c := analysisutil.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LAND:
			return in.identifies(c.X, opErrs) || in.identifies(c.Y, opErrs)
		case token.EQL:
			return isErr(c.X) && !in.isNil(c.Y) && in.isSentinel(c.Y) || isErr(c.Y) && !in.isNil(c.X) && in.isSentinel(c.X)
		}
	case *ast.CallExpr:
		_, args, ok := errorsCall(in.info, in.classifier, c)
		return ok && isErr(args[0])
	}
	return false
}

// testsConflict reports whether cond calls a Conflict check of the
// catalog or compares with a Conflict error.
func testsConflict(info *types.Info, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			found = isConflictCheck(analysisutil.Callee(info, x))
		case *ast.Ident, *ast.SelectorExpr:
			found = errorRole(info, x.(ast.Expr)) == catalog.Conflict
		}
		return !found
	})
	return found
}

// testsSuccess reports whether cond is err == nil (possibly among
// conjuncts).
func testsSuccess(info *types.Info, cond ast.Expr) bool {
	be, ok := analysisutil.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if be.Op == token.LAND {
		return testsSuccess(info, be.X) || testsSuccess(info, be.Y)
	}
	return equalsNil(info, be)
}

// equalsNil reports whether be is x == nil (or nil == x).
func equalsNil(info *types.Info, be *ast.BinaryExpr) bool {
	isNil := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		return ok && tv.IsNil()
	}
	return be.Op == token.EQL && (isNil(be.X) || isNil(be.Y))
}

// falseMeansFailure reports whether cond is false only where an error is
// not nil: err == nil, or a disjunction with it (`err == nil || attempt
// >= 4`): past `if cond { return }` the operation failed. Only an error
// compared with nil says so: past `if err != nil || s.conn == nil {
// return }` the operation succeeded (a lazy set-up that then calls its
// method again for the fast path).
func falseMeansFailure(info *types.Info, cond ast.Expr) bool {
	be, ok := analysisutil.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if be.Op == token.LOR {
		return falseMeansFailure(info, be.X) || falseMeansFailure(info, be.Y)
	}
	return equalsNil(info, be) && (analysisutil.IsErrorType(info.TypeOf(be.X)) || analysisutil.IsErrorType(info.TypeOf(be.Y)))
}

// clearsGuard reports whether the self-call at the end of path runs only
// under a test of state that outlives the call — a field or a package
// variable — that the path itself falsifies before the call: `if s.token
// != "" { s.token = ""; return s.fetch(ctx, url) }`, `if !c.retried {
// c.retried = true; return c.do(req) }`. The call it makes finds the test
// false, so there is one more attempt at most: the recursion is bounded
// (barring another goroutine's write between).
func clearsGuard(info *types.Info, path *callPath) bool {
	found := false
	path.up(func(parent, child ast.Node) bool {
		ifs, ok := parent.(*ast.IfStmt)
		if !ok || child != ifs.Body {
			return true
		}
		for _, cj := range analysisutil.Split(ifs.Cond, token.LAND) {
			if state, falsifies := guardedState(info, cj, outlivesCall(info)); state != nil && clearedBefore(info, path, ifs.Body, state, falsifies) {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// outlivesCall returns the test of state that outlives a call: a field
// selection or a package variable.
func outlivesCall(info *types.Info) func(ast.Expr) bool {
	return func(e ast.Expr) bool {
		var v *types.Var
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok {
				return sel.Kind() == types.FieldVal
			}
			v, _ = info.Uses[x.Sel].(*types.Var)
		case *ast.Ident:
			v, _ = info.Uses[x].(*types.Var)
		}
		return v != nil && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	}
}

// guardedState returns the state a conjunct tests, one that persistent
// accepts, and which written values make the conjunct false: for `x !=
// z` with z a constant or nil, a value equal to z (`x != ""`, `x !=
// nil`, `x != 0`); for `x == c` with c a constant, another constant;
// for a bool `x`, false; for `!x`, true.
func guardedState(info *types.Info, cj ast.Expr, persistent func(ast.Expr) bool) (state ast.Expr, falsifies func(ast.Expr) bool) {
	boolConst := func(want bool) func(ast.Expr) bool {
		return func(e ast.Expr) bool {
			tv := info.Types[e]
			return tv.Value != nil && tv.Value.Kind() == gconst.Bool && gconst.BoolVal(tv.Value) == want
		}
	}
	switch x := analysisutil.Unparen(cj).(type) {
	case *ast.BinaryExpr:
		if x.Op == token.EQL {
			// level == authenticated: false once another constant is
			// written.
			for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
				z := info.Types[pair[1]]
				if !persistent(pair[0]) || z.Value == nil {
					continue
				}
				return pair[0], func(e ast.Expr) bool {
					tv := info.Types[e]
					return tv.Value != nil && tv.Value.Kind() == z.Value.Kind() && !gconst.Compare(tv.Value, token.EQL, z.Value)
				}
			}
			return nil, nil
		}
		if x.Op != token.NEQ {
			return nil, nil
		}
		for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
			z := info.Types[pair[1]]
			if !persistent(pair[0]) || z.Value == nil && !z.IsNil() {
				continue
			}
			return pair[0], func(e ast.Expr) bool {
				tv := info.Types[e]
				if z.IsNil() {
					return tv.IsNil()
				}
				return tv.Value != nil && gconst.Compare(tv.Value, token.EQL, z.Value)
			}
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT && persistent(x.X) && analysisutil.IsBool(info.TypeOf(x.X)) {
			return x.X, boolConst(true)
		}
	default:
		if persistent(x) && analysisutil.IsBool(info.TypeOf(x)) {
			return x, boolConst(false)
		}
	}
	return nil, nil
}

// clearedBefore reports whether, in block or a block nested in it on
// path, a statement before the one holding the call assigns state (the
// same variable, or the same field of the same variable) a value that
// falsifies its test.
func clearedBefore(info *types.Info, path *callPath, block *ast.BlockStmt, state ast.Expr, falsifies func(ast.Expr) bool) bool {
	cleared := false
	path.up(func(parent, child ast.Node) bool {
		if b, ok := parent.(*ast.BlockStmt); ok {
			for _, st := range b.List {
				if st == child {
					break
				}
				as, ok := st.(*ast.AssignStmt)
				if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
					continue
				}
				for i, l := range as.Lhs {
					if sameState(info, l, state) && falsifies(as.Rhs[i]) {
						cleared = true
					}
				}
			}
		}
		return parent != ast.Node(block) && !cleared
	})
	return cleared
}

// sameState reports whether a and b denote the same variable, or the
// same field selected from the same variable, by their objects.
func sameState(info *types.Info, a, b ast.Expr) bool {
	switch x := analysisutil.Unparen(a).(type) {
	case *ast.Ident:
		y, ok := analysisutil.Unparen(b).(*ast.Ident)
		return ok && info.Uses[x] != nil && info.Uses[x] == info.Uses[y]
	case *ast.SelectorExpr:
		y, ok := analysisutil.Unparen(b).(*ast.SelectorExpr)
		if !ok || info.Uses[x.Sel] == nil || info.Uses[x.Sel] != info.Uses[y.Sel] {
			return false
		}
		if _, isField := info.Selections[x]; !isField {
			return true // pkg.Var
		}
		return sameState(info, x.X, y.X)
	}
	return false
}

// reassignedArg reports whether the self-call at the end of path passes
// a parameter as itself after a statement before it, in a block on
// path, assigned that parameter a value made from it (`data, err =
// repack(data)`, `node = node.next`): each call gets the input the one
// before made, recursion over changing input rather than a resend. A
// context made from the one given (`ctx, cancel =
// context.WithTimeout(ctx, d)`) carries the same request, and a counter
// stepped by a constant (`n = n - 1`) is the attempt count, not input;
// a value written from elsewhere (`token = ""`) is the same on every
// later call. So is a parameter one of whose fields was assigned a value
// made from that field (`req.Batch.Msgs = first` after `msgs :=
// req.Batch.Msgs; first := msgs[:len(msgs)/2]`: a batch split in half
// and each half sent, not the batch sent again); a field assigned
// something else (a body reset for the resend) is not.
func reassignedArg(info *types.Info, body *ast.BlockStmt, path *callPath, call *ast.CallExpr, fn *types.Func) bool {
	params := fn.Type().(*types.Signature).Params()
	found := false
	for i, a := range call.Args {
		id, ok := analysisutil.Unparen(a).(*ast.Ident)
		if !ok || i >= params.Len() || info.Uses[id] != params.At(i) || analysisutil.IsNamedType(params.At(i).Type(), "context", "Context") {
			continue
		}
		p := params.At(i)
		path.up(func(parent, child ast.Node) bool {
			b, ok := parent.(*ast.BlockStmt)
			if !ok {
				return true
			}
			for _, st := range b.List {
				if st == child {
					break
				}
				as, ok := st.(*ast.AssignStmt)
				if !ok || as.Tok != token.ASSIGN {
					continue
				}
				for j, l := range as.Lhs {
					rhs := as.Rhs[0]
					if len(as.Rhs) == len(as.Lhs) {
						rhs = as.Rhs[j]
					}
					if sel, ok := analysisutil.Unparen(l).(*ast.SelectorExpr); ok && len(as.Rhs) == len(as.Lhs) && rootedAt(info, sel, p) {
						if madeFromField(info, body, rhs, types.ExprString(sel), 0) {
							found = true
						}
						continue
					}
					lid, ok := analysisutil.Unparen(l).(*ast.Ident)
					if !ok || info.Uses[lid] != p {
						continue
					}
					if !plusConst(info, rhs, p) && mentionsOutsideClosures(info, rhs, p) {
						found = true
					}
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// rootedAt reports whether the selector chain sel (`req.Batch.Msgs`)
// starts at the variable p, through fields only.
func rootedAt(info *types.Info, sel *ast.SelectorExpr, p *types.Var) bool {
	var e ast.Expr = sel
	for {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if s, ok := info.Selections[x]; !ok || s.Kind() != types.FieldVal {
				return false
			}
			e = x.X
		case *ast.Ident:
			return info.Uses[x] == p
		default:
			return false
		}
	}
}

// madeFromField reports whether rhs is made from the field whose text is
// field (`req.Batch.Msgs`), directly or through locals of body defined
// once (depth levels followed so far).
func madeFromField(info *types.Info, body *ast.BlockStmt, rhs ast.Expr, field string, depth int) bool {
	found := false
	ast.Inspect(rhs, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if types.ExprString(x) == field {
				found = true
			}
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && depth < 3 {
				if def := definedOnce(info, body, v); def != nil && madeFromField(info, body, def, field, depth+1) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// definedOnce returns the value the local v is defined with in body
// (`v := e`, also one of several: `a, b := x[:i], x[i:]`), when nothing
// assigns it again; nil otherwise.
func definedOnce(info *types.Info, body *ast.BlockStmt, v *types.Var) ast.Expr {
	var def ast.Expr
	again := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || again {
			return !again
		}
		for j, l := range as.Lhs {
			id, ok := analysisutil.Unparen(l).(*ast.Ident)
			if !ok {
				continue
			}
			switch {
			case info.Defs[id] == v && as.Tok == token.DEFINE && len(as.Rhs) == len(as.Lhs):
				def = as.Rhs[j]
			case info.Uses[id] == v:
				again = true
			}
		}
		return !again
	})
	if again {
		return nil
	}
	return def
}

// plusConst reports whether e is p plus or minus a constant.
func plusConst(info *types.Info, e ast.Expr, p types.Object) bool {
	be, ok := analysisutil.Unparen(e).(*ast.BinaryExpr)
	if !ok || be.Op != token.ADD && be.Op != token.SUB || info.Types[be.Y].Value == nil {
		return false
	}
	id, ok := analysisutil.Unparen(be.X).(*ast.Ident)
	return ok && info.Uses[id] == p
}

// opErrField reports whether e is a field, of a type that is an error,
// of a value an operation returned (`resp.Err`, of a struct the
// operation answers with): the outcome of an operation carried inside
// its result. opVals are the variables that hold those values.
func (in *interp) opErrField(e ast.Expr, opVals map[types.Object]bool) bool {
	sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := in.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return false
	}
	id, ok := analysisutil.Unparen(sel.X).(*ast.Ident)
	if !ok || !opVals[in.info.Uses[id]] {
		return false
	}
	return types.Implements(s.Type(), errorIface)
}

// failsField reports whether cond, or a conjunct of it, holds only where
// an error carried in a result (opErrField) names a failure: it differs
// from nil or from its type's zero value (`resp.Err != ErrNoError`, a
// code whose zero means none), or it is a sentinel error of a non-zero
// value (`resp.Err == ErrBusy`, `errors.Is(resp.Err, ErrBusy)`).
func (in *interp) failsField(cond ast.Expr, opVals map[types.Object]bool) bool {
	field := func(e ast.Expr) bool { return in.opErrField(e, opVals) }
	zero := func(e ast.Expr) bool {
		tv, ok := in.info.Types[analysisutil.Unparen(e)]
		return ok && (tv.IsNil() || tv.Value != nil && isZeroConst(tv.Value))
	}
	failure := func(e ast.Expr) bool {
		tv, ok := in.info.Types[analysisutil.Unparen(e)]
		if !ok || tv.IsNil() {
			return false
		}
		if tv.Value != nil {
			return !isZeroConst(tv.Value)
		}
		return in.isSentinel(e)
	}
	switch c := analysisutil.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LAND:
			return in.failsField(c.X, opVals) || in.failsField(c.Y, opVals)
		case token.NEQ:
			return field(c.X) && zero(c.Y) || field(c.Y) && zero(c.X)
		case token.EQL:
			return field(c.X) && failure(c.Y) || field(c.Y) && failure(c.X)
		}
	case *ast.CallExpr:
		name, args, ok := errorsCall(in.info, nil, c)
		return ok && name == "Is" && field(args[0]) && failure(args[1])
	}
	return false
}

// fieldGuarded reports whether the node at the end of path runs only in
// the body of an if whose condition finds an operation's result carrying
// a failure (failsField): `if errors.Is(resp.Err, ErrNotReady) { return
// retry() }`, where the operation itself returned no error.
func (in *interp) fieldGuarded(path *callPath, opVals map[types.Object]bool) bool {
	for parent, child := range path.up {
		if p, ok := parent.(*ast.IfStmt); ok && child == p.Body && in.failsField(p.Cond, opVals) {
			return true
		}
	}
	return false
}

// freshError reports whether e is nil or a new error made here
// (fmt.Errorf, errors.New, errors.Join) from nothing that mentions the
// error parameter p: the last failure, described anew to be returned. An
// error taken from the one given (errors.Unwrap(err), a wrapped cause
// held in a variable) walks a chain of errors: recursion over changing
// input.
func freshError(info *types.Info, e ast.Expr, p types.Object) bool {
	e = analysisutil.Unparen(e)
	if tv, ok := info.Types[e]; ok && tv.IsNil() {
		return true
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := analysisutil.Callee(info, call)
	if !analysisutil.IsFunc(fn, "fmt", "Errorf") && !analysisutil.IsFunc(fn, "errors", "New") && !analysisutil.IsFunc(fn, "errors", "Join") {
		return false
	}
	return !mentionsOutsideClosures(info, call, p)
}

// testedAs reports whether the node at the end of path runs only where
// the bool parameter p holds want: inside the body of an if whose
// condition, or a conjunct of it, is p (want true) or !p (want false).
func testedAs(info *types.Info, path *callPath, p *types.Var, want bool) bool {
	is := func(e ast.Expr) bool {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == p
	}
	found := false
	for parent, child := range path.up {
		ifs, ok := parent.(*ast.IfStmt)
		if !ok || child != ifs.Body {
			continue
		}
		for _, c := range analysisutil.Split(ifs.Cond, token.LAND) {
			c = analysisutil.Unparen(c)
			if u, ok := c.(*ast.UnaryExpr); ok && u.Op == token.NOT {
				found = found || !want && is(u.X)
			} else {
				found = found || want && is(c)
			}
		}
	}
	return found
}
