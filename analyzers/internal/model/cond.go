package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// cond splits state s by the condition e into the states where e holds
// and those where it does not, refining what the path knows. Infeasible
// branches (an error known nil tested non-nil) are dropped.
func (in *interp) cond(e ast.Expr, s *state) (ts, fs []*state) {
	ts, fs = in.cond0(e, s)
	if len(in.boundVars) > 0 && len(ts) > 0 && len(fs) > 0 && in.mentionsBound(e) && in.boundUndecided(e, s) {
		// A condition on the loop's bound taken both ways (attempt+1 <
		// maxRetries): whichever way, the path may be the last attempt.
		mark := func(ss []*state) []*state {
			out := make([]*state, len(ss))
			for i, x := range ss {
				x = x.clone()
				x.boundFork = true
				out[i] = x
			}
			return out
		}
		ts, fs = mark(ts), mark(fs)
	}
	return ts, fs
}

// unfork returns ss with no path marked as a fork of the bound.
func unfork(ss []*state) []*state {
	out := ss
	for i, x := range ss {
		if x.boundFork {
			if &out[0] == &ss[0] {
				out = slices.Clone(ss)
			}
			x = x.clone()
			x.boundFork = false
			out[i] = x
		}
	}
	return out
}

// boundUndecided reports whether the part of e that mentions the loop's
// bound is what the path cannot decide: in `again && n+1 < count` with n
// known, only `again` is undecided, and the path is no fork of the bound.
func (in *interp) boundUndecided(e ast.Expr, s *state) bool {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			return in.mentionsBound(x.X) && in.boundUndecided(x.X, s) || in.mentionsBound(x.Y) && in.boundUndecided(x.Y, s)
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return in.boundUndecided(x.X, s)
		}
	}
	v, ok := in.eval(e, s)
	return !ok || v.Kind() != constant.Bool
}

func (in *interp) mentionsBound(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && in.boundVars[in.info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

func (in *interp) cond0(e ast.Expr, s *state) (ts, fs []*state) {
	if !in.step(s) {
		return nil, nil
	}
	e = analysisutil.Unparen(e)
	if v, ok := in.eval(e, s); ok && v.Kind() == constant.Bool {
		if constant.BoolVal(v) {
			return []*state{s}, nil
		}
		return nil, []*state{s}
	}
	switch e := e.(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			t, f := in.cond(e.X, s)
			return f, t
		}
	case *ast.BinaryExpr:
		if (e.Op == token.LAND || e.Op == token.LOR) && in.resultBeforeError(e, s) {
			// ws == nil || err != nil: the error first, as the same test
			// reads the other way round (comparisons, no effects).
			e = &ast.BinaryExpr{X: e.Y, OpPos: e.OpPos, Op: e.Op, Y: e.X}
		}
		switch e.Op {
		case token.LAND:
			xt, xf := in.cond(e.X, s)
			for _, x := range xt {
				yt, yf := in.cond(e.Y, x)
				ts = append(ts, yt...)
				fs = append(fs, yf...)
			}
			return in.limit(ts), in.limit(append(fs, xf...))
		case token.LOR:
			xt, xf := in.cond(e.X, s)
			for _, x := range xf {
				yt, yf := in.cond(e.Y, x)
				ts = append(ts, yt...)
				fs = append(fs, yf...)
			}
			return in.limit(append(xt, ts...)), in.limit(fs)
		case token.EQL, token.NEQ:
			if t, f, ok := in.nilCompare(e, s); ok {
				return t, f
			}
			if t, f, ok := in.statusCompare(e, s); ok {
				return t, f
			}
			if t, f, ok := in.sentinelCompare(e, s); ok {
				return t, f
			}
			if t, f, ok := in.cancelCompare(e, s); ok {
				return t, f
			}
			if t, f, ok := in.emptyCompare(e, s); ok {
				return t, f
			}
			if t, f, ok := in.derivedCompare(e, s); ok {
				return t, f
			}
			if t, f, ok := in.codeCompare(e, s); ok {
				return t, f
			}
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			if t, f, ok := in.statusCompare(e, s); ok {
				return t, f
			}
		}
	case *ast.Ident:
		if obj := in.objOf(e); obj != nil {
			if def, ok := s.boolDef(obj); ok {
				switch v := def.(type) {
				case opVerdict:
					return v.cond(s)
				case assertOK:
					return v.cond(s)
				case ast.Expr:
					return in.cond(v, s)
				}
			}
		}
	case *ast.IndexExpr:
		// retryable[resp.StatusCode]: a set asked about the response's
		// status judges it, as a predicate given it does.
		if k, ok := in.statusKey(e.Index, s); ok {
			if sl, ok := s.slot(k); ok && sl.isResp && !sl.accepted {
				c := markChecked(s, k)
				return []*state{c}, []*state{c}
			}
		}
	case *ast.CallExpr:
		s = in.sessionTest(e, s)
		if in.flags[e] {
			// swapped.Swap(false): true once for each time another
			// goroutine raised the flag; going round on it follows that
			// goroutine's action, as reading on does (flags.go).
			c := s.clone()
			c.progress = true
			return []*state{c}, []*state{s}
		}
		ts, fs := in.predicate(e, s)
		if in.hookGated != nil && in.hookGated(analysisutil.Callee(in.info, e)) {
			// if c.retryOnError(resp): the receiver's hook picks the
			// failures that go round.
			ts = identify(ts)
		}
		return ts, fs
	}
	return []*state{s}, []*state{s}
}

func (in *interp) isNil(e ast.Expr) bool {
	tv, ok := in.info.Types[analysisutil.Unparen(e)]
	return ok && tv.IsNil()
}

// errKey returns the slot key of an error expression compared with nil:
// a variable holding an operation's error, the error field of a result
// that carries its operation's outcome (res.Err: the result's key), or an
// operation call itself.
func (in *interp) errKey(e ast.Expr, s *state) (key any, ns *state, ok bool) {
	e = analysisutil.Unparen(e)
	switch x := e.(type) {
	case *ast.Ident:
		obj := in.objOf(x)
		if obj == nil {
			return nil, s, false
		}
		if sl, ok := s.slot(obj); ok && !sl.isResp {
			// res != nil of a result carrying its outcome asks
			// whether there is one, not how it went.
			return obj, s, !sl.carrier
		}
		if in.opVars[obj] {
			return obj, s, true
		}
	case *ast.SelectorExpr:
		// res.Err of a result that carries its outcome in that field.
		if tv, ok := in.info.Types[x]; !ok || !analysisutil.IsErrorType(tv.Type) {
			return nil, s, false
		}
		obj := in.objOf(x.X)
		if obj == nil {
			return nil, s, false
		}
		if sl, ok := s.slot(obj); ok && sl.carrier {
			if f, isF := in.info.Uses[x.Sel].(*types.Var); isF && f == waits.ErrorField(in.pkg, obj.Type()) {
				return obj, s, true
			}
		}
	case *ast.CallExpr:
		if in.isOp(x) && len(in.results(x)) == 1 && !in.carries(x) {
			c := s.clone()
			in.startOp(c, x)
			if in.isDelayCall(x) {
				c.delayed, c.delayMay = true, false
			} else if in.opMayWait(x) {
				c.delayed, c.delayMay = true, true
			}
			c.overwrite(x)
			c.setSlot(slot{key: x, op: x, judges: in.judgedResps(x, c)})
			return x, c, true
		}
	}
	return nil, s, false
}

func (in *interp) nilCompare(e *ast.BinaryExpr, s *state) (ts, fs []*state, ok bool) {
	var other ast.Expr
	switch {
	case in.isNil(e.Y):
		other = e.X
	case in.isNil(e.X):
		other = e.Y
	default:
		return nil, nil, false
	}
	if sel, isSel := analysisutil.Unparen(other).(*ast.SelectorExpr); isSel {
		if failed, ok := in.resultFailure(sel, s); ok {
			if e.Op == token.NEQ {
				return []*state{failed}, []*state{s}, true
			}
			return []*state{s}, []*state{failed}, true
		}
	}
	key, s, ok := in.errKey(other, s)
	if !ok {
		return nil, nil, false
	}
	failed := nonNil(refine(s, key, stFailed))
	okay := nonNil(refine(s, key, stOK))
	if e.Op == token.NEQ {
		return failed, okay, true
	}
	return okay, failed, true
}

var errorIface = analysisutil.ErrorType.Underlying().(*types.Interface)

// statusExpr reports whether e reads resp.StatusCode of a tracked
// response, and returns the response's key.
func (in *interp) statusKey(e ast.Node, s *state) (key any, ok bool) {
	httpConst := -1 // whether e names one of net/http's constants, asked once
	ast.Inspect(e, func(n ast.Node) bool {
		if key != nil {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok && in.statusMethod(call) {
			// se.HTTPStatusCode() == http.StatusNotFound, se an error
			// errors.As found: the error's variable stands for the
			// response, as with a status field.
			if httpConst < 0 {
				httpConst = 0
				if namesHTTPConst(in.info, e) {
					httpConst = 1
				}
			}
			if httpConst == 1 {
				key = in.objOf(analysisutil.Unparen(call.Fun).(*ast.SelectorExpr).X)
			}
			return key == nil
		}
		if id, ok := n.(*ast.Ident); ok {
			// code, a copy of resp.StatusCode the path has no value of.
			if r, ok := in.statusVars[in.objOf(id)]; ok && s != nil {
				if _, known := s.val(in.objOf(id)); !known {
					key = r
				}
			}
			return false
		}
		sel, isSel := n.(*ast.SelectorExpr)
		if isSel && in.isStatusField(sel) {
			// apiErr.Status of an error built from a response: the
			// error's variable stands for the response.
			if obj := in.objOf(sel.X); obj != nil {
				key = obj
			}
			return false
		}
		if !isSel || sel.Sel.Name != "StatusCode" {
			return true
		}
		if obj := in.objOf(sel.X); obj != nil {
			if sl, ok := s.slot(obj); ok && sl.isResp {
				key = obj
			} else if tv, ok := in.info.Types[sel.X]; ok && isHTTPResponse(tv.Type) {
				key = obj
			}
		}
		return false
	})
	return key, key != nil
}

// statusCompare evaluates a comparison involving resp.StatusCode at every
// sample status and narrows the response's possible statuses.
func (in *interp) statusCompare(e *ast.BinaryExpr, s *state) (ts, fs []*state, ok bool) {
	key, ok := in.statusKey(e, s)
	if !ok {
		return nil, nil, false
	}
	var tmask uint64
	for i, code := range httpSamples {
		v, ok := in.evalWith(e, s, key, code)
		if !ok || v.Kind() != constant.Bool {
			return nil, nil, false
		}
		if constant.BoolVal(v) {
			tmask |= 1 << i
		}
	}
	sl, found := s.slot(key)
	if !found {
		sl = slot{key: key, isResp: true, mask: fullMask}
	}
	mk := func(m uint64) []*state {
		m &= sl.mask
		if m == 0 {
			return nil
		}
		c := s.clone()
		n := sl
		n.mask = m
		c.setSlot(n)
		return []*state{c}
	}
	return mk(tmask), mk(fullMask &^ tmask), true
}

// predicate handles a boolean call in a condition: errors.Is/As on an
// operation's error (true means it failed), or any predicate over an
// operation's result (judged, direction unknown).
func (in *interp) predicate(call *ast.CallExpr, s *state) (ts, fs []*state) {
	fn := analysisutil.Callee(in.info, call)
	var keys []any
	text := false // an argument is an error's text: err.Error()
	for _, a := range call.Args {
		if m, ok := analysisutil.Unparen(a).(*ast.CallExpr); ok && len(m.Args) == 0 {
			if sel, ok := analysisutil.Unparen(m.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" {
				if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok && in.info.TypeOf(id) != nil && types.Implements(in.info.TypeOf(id), errorIface) {
					if k, _, ok := in.errKey(id, s); ok {
						keys = append(keys, k)
						text = true
						continue
					}
				}
			}
		}
		if k, _, ok := in.errKey(a, s); ok {
			if _, isCall := k.(*ast.CallExpr); !isCall {
				keys = append(keys, k)
				continue
			}
		}
		if k, ok := in.statusKey(a, s); ok {
			keys = append(keys, k)
			continue
		}
		if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok {
			if obj := in.objOf(id); obj != nil {
				if _, ok := s.slot(obj); ok {
					keys = append(keys, obj)
				}
			}
		}
	}
	if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		// resp.IsSuccess(), err.Temporary()...
		if obj := in.objOf(sel.X); obj != nil {
			if _, ok := s.slot(obj); ok {
				keys = append(keys, obj)
			}
		}
	}
	if len(keys) == 0 {
		return []*state{s}, []*state{s}
	}
	if id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident); ok && in.yields[in.info.Uses[id]] {
		// yield(v, err) in an iterator: the outcome is handed to the
		// consumer, which decides whether the loop goes on; the loop
		// delivers it, it does not retry it.
		t := s
		for _, a := range call.Args {
			if key, s2, ok := in.errKey(a, t); ok {
				t = settle(s2, key)
			}
		}
		return []*state{t}, []*state{t}
	}
	if isConflictCheck(fn) && len(call.Args) == 1 {
		// A lost race is not a failed call: on that branch the outcome
		// is settled, whatever was known of it before.
		if key, s2, ok := in.errKey(call.Args[0], s); ok {
			return []*state{settle(s2, key)}, []*state{s2}
		}
		return []*state{s}, []*state{s}
	}
	// errors.Is, As, AsType, or a package's function forwarding to them.
	errName, errArgs, isErrorsIs := errorsCall(in.info, in.classifier, call)
	specificClassifier := false // a classifier that picks out specific failures only
	if !isErrorsIs && fn != nil && in.classifier != nil {
		// isRetryable(err), a function of the package that returns true
		// only on failures it picked out (IdentifyFact): its true branch
		// is such a failure, as errors.Is's is.
		if f, ok := in.classifier(fn); ok && f.Param < len(call.Args) {
			if _, _, ok := in.errKey(call.Args[f.Param], s); ok {
				isErrorsIs = true
				specificClassifier = f.Specific
			}
		}
	}
	if !isErrorsIs && fn == nil && in.statefulPred != nil && in.statefulPred(call) {
		// shouldRetry(err), a closure a constructor made that counts its
		// calls (and may wait, or give up): the code's own policy picks
		// out what goes round, as a classifier's does.
		isErrorsIs = true
	}
	if !isErrorsIs && len(call.Args) == 1 && in.sentinelIs(fn, call) {
		// ErrNoQuorum.Is(err): the errors package's Is protocol asked of a
		// package-level error, a family it matches (by code, by type):
		// the failure is identified, of no specific kind.
		if _, _, ok := in.errKey(call.Args[0], s); ok {
			isErrorsIs = true
		}
	}
	if len(errArgs) == 2 {
		if noFailureErrno(in.info, errArgs[1]) || isEndSentinel(in.info, errArgs[1]) {
			// errors.Is(err, io.EOF): on the true branch the outcome is
			// no failure, whatever was known of it before (an err == nil
			// tested false first, in a switch).
			if key, s2, ok := in.errKey(errArgs[0], s); ok && errName == "Is" {
				return []*state{settle(s2, key)}, []*state{s2}
			}
			return []*state{s}, []*state{s}
		}
	}
	var test *StatusTestFact // wantsGrant(resp): true only for some statuses
	if in.statusTest != nil {
		test = in.statusTest(fn)
	}
	t, f := s, s
	for _, k := range keys {
		if sl, ok := s.slot(k); ok && sl.isResp && sl.accepted {
			continue // judged already by the call that accepted it
		}
		if sl, ok := s.slot(k); ok && sl.isResp && test != nil && test.Param < len(call.Args) && in.objOf(call.Args[test.Param]) == k {
			if t != nil {
				var m uint64
				for i, code := range httpSamples {
					if slices.Contains(test.Codes, code) {
						m |= 1 << i
					}
				}
				if m &= sl.mask; m == 0 {
					t = nil
				} else {
					t = t.clone()
					n, _ := t.slot(k)
					n.mask = m
					t.setSlot(n)
				}
			}
			if f != nil {
				f = markChecked(f, k)
			}
			continue
		}
		if sl, ok := s.slot(k); ok && sl.isResp {
			t, f = markChecked(t, k), markChecked(f, k)
			continue
		}
		if isErrorsIs {
			if t != nil {
				// errors.Is with an error value names one failure; As, a
				// classifier, a family that may be an outage's.
				is := errName == "Is"
				specific := is && in.specificSentinel(errArgs[1]) || specificClassifier
				ts := identifyAs(nonNil(refine(t, k, stFailed)), !specific)
				if is && unsentSentinel(in.info, errArgs[1]) {
					ts = markUnsent(ts)
				}
				if errName == "As" && ownErrorType(in.info, errArgs[1]) {
					ts = markOwnType(ts)
				}
				t = nil
				if len(ts) > 0 {
					t = ts[0]
				}
			}
			if f != nil {
				f = refine(f, k, stMaybe)
			}
			continue
		}
		if t != nil {
			t = refine(t, k, stChecked)
		}
		if f != nil {
			f = refine(f, k, stChecked)
		}
	}
	if text {
		// strings.Contains(err.Error(), "in use"): true picks out one
		// failure by its text.
		return identify(nonNil(t)), nonNil(f)
	}
	return nonNil(t), nonNil(f)
}

// statusMethod reports whether call asks a variable holding an error (or
// what errors.As found in one) for a number: a method with no arguments
// and one result of an integer type (`se.HTTPStatusCode()`). Compared
// with one of net/http's status constants, it is the status of the
// response the error was made from (statusKey).
func (in *interp) statusMethod(call *ast.CallExpr) bool {
	if len(call.Args) != 0 {
		return false
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if s := in.info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return false
	}
	if _, isID := analysisutil.Unparen(sel.X).(*ast.Ident); !isID {
		return false
	}
	recv := in.info.TypeOf(sel.X)
	if recv == nil || !types.Implements(recv, errorIface) && !types.IsInterface(recv) {
		return false
	}
	t := in.info.TypeOf(call)
	b, ok := t.(*types.Basic)
	if !ok {
		if t == nil {
			return false
		}
		b, ok = t.Underlying().(*types.Basic)
	}
	return ok && b.Info()&types.IsInteger != 0
}

// namesHTTPConst reports whether n refers to a constant of net/http
// (http.StatusNotFound).
func namesHTTPConst(info *types.Info, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if c, ok := info.Uses[id].(*types.Const); ok && c.Pkg() != nil && c.Pkg().Path() == "net/http" {
				found = true
			}
		}
		return !found
	})
	return found
}
