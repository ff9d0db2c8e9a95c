package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// settle marks the outcome of key as not a failure, overriding what was
// known: the call lost an optimistic-concurrency race (a Conflict row),
// which the loop answers by reading anew, not by retrying.
func settle(s *state, key any) *state {
	sl, ok := s.slot(key)
	if !ok {
		sl = slot{key: key}
	}
	c := s.clone()
	sl.st = stOK
	c.setSlot(sl)
	return c
}

// sentinelCompare handles err == ErrSomething: true means the operation
// failed; false says nothing definite.
func (in *interp) sentinelCompare(e *ast.BinaryExpr, s *state) (ts, fs []*state, ok bool) {
	for _, pair := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
		tv, isErr := in.info.Types[analysisutil.Unparen(pair[1])]
		if !isErr || !analysisutil.IsErrorType(tv.Type) && !types.Implements(tv.Type, errorIface) {
			continue
		}
		if !in.isSentinel(pair[1]) {
			continue // err != otherErr: two outcomes compared, not a sentinel
		}
		if errorRole(in.info, pair[1]) == catalog.Conflict {
			if key, s2, ok := in.errKey(pair[0], s); ok {
				if e.Op == token.EQL {
					return []*state{settle(s2, key)}, []*state{s2}, true
				}
				return []*state{s2}, []*state{settle(s2, key)}, true
			}
		}
		if noFailureErrno(in.info, pair[1]) || isEndSentinel(in.info, pair[1]) {
			// EINTR, EAGAIN: a system call interrupted or not ready, tried
			// again at once; io.EOF: the end of a stream. Not a failed
			// downstream call: on the equal branch the outcome is settled.
			if key, s2, ok := in.errKey(pair[0], s); ok {
				if e.Op == token.EQL {
					return []*state{settle(s2, key)}, []*state{s2}, true
				}
				return []*state{s2}, []*state{settle(s2, key)}, true
			}
			return []*state{s}, []*state{s}, true
		}
		key, s2, ok := in.errKey(pair[0], s)
		if !ok {
			continue
		}
		failed := identifyAs(nonNil(refine(s2, key, stFailed)), !in.specificSentinel(pair[1]))
		if unsentSentinel(in.info, pair[1]) {
			failed = markUnsent(failed)
		}
		checked := nonNil(refine(s2, key, stMaybe))
		if e.Op == token.EQL {
			return failed, checked, true
		}
		return checked, failed, true
	}
	return nil, nil, false
}

// specificSentinel reports whether e, an error value an operation's
// error is compared with, names one failure of no outage kind: a
// sentinel that is not one of the catalog's Outage rows (a reset
// connection, a timeout, a server that does not answer) nor made as such
// a failure (OutageFact: a gRPC Unavailable status). A retry on
// such a failure answers this request's own state (a conflict, a race,
// no progress yet), which clients do not reach together.
func (in *interp) specificSentinel(e ast.Expr) bool {
	role := errorRole(in.info, e)
	if in.outage != nil && in.outage(analysisutil.ReferredObject(in.info, e)) {
		return false
	}
	return in.isSentinel(e) && role != catalog.Outage && role != catalog.Unsent
}

// noFailureErrno reports whether e is a system error number that says
// nothing failed (syscall.EINTR, EAGAIN: the catalog's Interrupted rows)
// or one the catalog does not name (an EEXIST the loop expects); the
// numbers of failures (ECONNREFUSED, ECONNRESET: Outage and Unsent rows)
// are failures.
func noFailureErrno(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok || !isErrno(tv.Type) {
		return false
	}
	role := errorRole(info, e)
	return role != catalog.Outage && role != catalog.Unsent
}

// unsentSentinel reports whether e names an error that says the request
// never reached the server (the catalog's Unsent rows).
func unsentSentinel(info *types.Info, e ast.Expr) bool {
	return errorRole(info, e) == catalog.Unsent
}

// isEndSentinel reports whether e names an error that marks the end of a
// stream or an iteration (io.EOF, iterator.Done: the catalog's EndSentinel
// rows) or a lost optimistic-concurrency race (its Conflict rows), which
// is not a failure of the call.
func isEndSentinel(info *types.Info, e ast.Expr) bool {
	role := errorRole(info, e)
	return role == catalog.EndSentinel || role == catalog.Conflict
}

// errorRole is the catalog role of the error variable or constant e
// names (0 when it names none).
func errorRole(info *types.Info, e ast.Expr) catalog.Role {
	obj := analysisutil.ReferredObject(info, e)
	switch obj.(type) {
	case *types.Var, *types.Const:
	default:
		return 0
	}
	if obj.Pkg() == nil {
		return 0
	}
	if row := catalog.Lookup(obj.Pkg().Path(), "", obj.Name()); row != nil {
		return row.Role
	}
	return 0
}

// isConflictCheck reports whether fn reports an optimistic-concurrency
// conflict (the catalog's Conflict rows): a loop that goes round when it
// holds re-reads and writes anew; it does not retry a failed call.
func isConflictCheck(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	row := catalog.Lookup(fn.Pkg().Path(), "", fn.Name())
	return row != nil && row.Role == catalog.Conflict
}

func isErrno(t types.Type) bool {
	return analysisutil.IsNamedType(t, "syscall", "Errno") || analysisutil.IsNamedType(t, "golang.org/x/sys/unix", "Errno")
}

// isSentinel reports whether e names a package-level error variable
// (io.EOF, ErrNotFound) or a constant-like error value.
func (in *interp) isSentinel(e ast.Expr) bool {
	return isSentinel(in.info, e) || isLocalSentinel(in.info, in.sentinelVars, e)
}

// isLocalSentinel reports whether e names a local variable that holds an
// error made once in its function (findLocalSentinels): `busy :=
// errors.New("held")`, handed to a closure and compared with what comes
// back, is that function's own sentinel.
func isLocalSentinel(info *types.Info, vars map[*types.Var]bool, e ast.Expr) bool {
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	return ok && vars[v]
}

// findLocalSentinels finds the local variables (no parameters) whose
// every value is a new error made by errors.New or fmt.Errorf, and whose
// address is never taken: each holds one error value the function made,
// which a comparison with it picks out as a sentinel does.
func findLocalSentinels(info *types.Info, vals *provenance.Values) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for obj, as := range vals.Assigns {
		v, ok := obj.(*types.Var)
		if !ok || !provenance.IsLocal(v) || len(as) == 0 || vals.Elements[v] || !analysisutil.IsErrorType(v.Type()) {
			continue
		}
		made := true
		for _, a := range as {
			call, ok := analysisutil.Unparen(a.Value).(*ast.CallExpr)
			if !ok {
				made = false
				break
			}
			if fn := analysisutil.Callee(info, call); !analysisutil.IsFunc(fn, "errors", "New") && !analysisutil.IsFunc(fn, "fmt", "Errorf") {
				made = false
				break
			}
		}
		if made {
			out[v] = true
		}
	}
	return out
}

func isSentinel(info *types.Info, e ast.Expr) bool {
	if _, ok := analysisutil.Unparen(e).(*ast.CompositeLit); ok {
		return true
	}
	switch v := analysisutil.ReferredObject(info, e).(type) {
	case *types.Const:
		return true // const ErrEndOfStream Error = "..."
	case *types.Var:
		return !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	}
	return false
}

// cancelCompare handles attemptCtx.Err() == context.Canceled: on the
// branch where a context was cancelled, the path knows its failure to be
// that cancellation (the code cancelled the attempt itself, to restart
// it elsewhere), no failure of the dependency: identified, of no outage
// kind. Which context it is does not matter for that.
func (in *interp) cancelCompare(e *ast.BinaryExpr, s *state) (ts, fs []*state, ok bool) {
	for _, pair := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
		call, isCall := analysisutil.Unparen(pair[0]).(*ast.CallExpr)
		if !isCall || !analysisutil.IsMethod(analysisutil.Callee(in.info, call), "context", "Context", "Err") {
			continue
		}
		if !analysisutil.IsPkgVar(analysisutil.ReferredObject(in.info, pair[1]), "context", "Canceled") {
			continue
		}
		cancelled := identifyAs([]*state{s}, false)
		if e.Op == token.EQL {
			return cancelled, []*state{s}, true
		}
		return []*state{s}, cancelled, true
	}
	return nil, nil, false
}

// derivedCompare handles a value computed from an operation's error
// compared with a constant that is not a zero value: `codeOf(err).Code ==
// "NoSuchBucket"`, `errCode(err) == 1205`, `err.Error() == "busy"`. As a
// classifier's test, it picks out which failure the error is: on the
// equal branch the operation failed, identified (of no specific kind: a
// code may be an outage's); the other branch says nothing. A zero value
// (`code(err) == 0`, `== ""`) may be what a nil error gives; a bool is
// the predicate's own answer, not a code.
func (in *interp) derivedCompare(e *ast.BinaryExpr, s *state) (ts, fs []*state, ok bool) {
	for _, pair := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
		tv, ok := in.info.Types[analysisutil.Unparen(pair[1])]
		if !ok || tv.Value == nil || tv.Value.Kind() == constant.Bool || isZeroConst(tv.Value) {
			continue // f(err) == true is the predicate f(err)
		}
		key, s2, ok := in.derivedKey(pair[0], s)
		if !ok {
			continue
		}
		failed := identifyAs(nonNil(refine(s2, key, stFailed)), true)
		if cancelProofCode(tv.Type, tv.Value) {
			// status.Code(err) == codes.Unavailable: a failure no
			// cancellation gives.
			failed = markOwnType(failed)
		}
		if _, ok := in.specificCode(pair[0], tv.Value); ok {
			// ae.ErrorCode() == "InvalidGroup.Duplicate": one failure
			// of the request's own, whatever the path knew before.
			failed = narrowTo(failed)
		}
		checked := nonNil(refine(s2, key, stMaybe))
		if e.Op == token.EQL {
			return failed, checked, true
		}
		return checked, failed, true
	}
	return nil, nil, false
}

// derivedKey returns the slot key of the operation's error that e, a
// call or a field of a call's result, is computed from: `f(err)`,
// `f(err).Code`, `err.Error()`.
func (in *interp) derivedKey(e ast.Expr, s *state) (any, *state, bool) {
	for {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			// st.Code after st, ok := status.FromError(err).
			if key, ok := in.derivedVar(x, s); ok {
				return key, s, true
			}
		case *ast.SelectorExpr:
			e = x.X
			continue
		case *ast.CallExpr:
			if tv, ok := in.info.Types[x.Fun]; ok && tv.IsType() {
				return nil, s, false // a conversion
			}
			if sel, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr); ok && len(x.Args) == 0 {
				if key, s2, ok := in.errKey(sel.X, s); ok {
					if _, isCall := key.(*ast.CallExpr); !isCall {
						return key, s2, true // err.Error()
					}
				}
				if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok {
					if key, ok := in.derivedVar(id, s); ok {
						return key, s, true // st.Code()
					}
				}
			}
			for _, a := range x.Args {
				if key, s2, ok := in.errKey(a, s); ok {
					if _, isCall := key.(*ast.CallExpr); !isCall {
						return key, s2, true
					}
				}
			}
		}
		return nil, s, false
	}
}

// codeCompare handles a string code read from an error the path already
// identified, compared with a constant: `errors.As(err, &ae) &&
// ae.ErrorCode() == "InvalidGroup.Duplicate"`, or the same in a type
// switch's case. errors.As into an API error interface names a family
// that may be an outage's; the code, when it is none of the catalog's
// outage codes (specificCode), narrows it to one failure of the
// request's own on the equal branch. A path that identified nothing yet
// learns nothing from it: the variable may not be the operation's error.
func (in *interp) codeCompare(e *ast.BinaryExpr, s *state) (ts, fs []*state, ok bool) {
	for _, pair := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
		tv, ok := in.info.Types[analysisutil.Unparen(pair[1])]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String || isZeroConst(tv.Value) {
			continue
		}
		base, ok := in.specificCode(pair[0], tv.Value)
		if !ok {
			continue
		}
		id, isID := analysisutil.Unparen(base).(*ast.Ident)
		if !isID {
			continue
		}
		t := in.info.TypeOf(id)
		if t == nil || !types.Implements(t, errorIface) && !types.Implements(types.NewPointer(t), errorIface) {
			continue
		}
		eq := []*state{s}
		if s.identified && s.failing() {
			eq = narrowTo(eq)
		}
		if e.Op == token.EQL {
			return eq, []*state{s}, true
		}
		return []*state{s}, eq, true
	}
	return nil, nil, false
}

// specificCode reports whether e == v names one failure of no outage
// kind: v is a string code that is none of the catalog's outage codes
// (catalog.OutageCode: throttling, unavailable, timeouts), and e reads it
// from a field or a method of no arguments (`apiErr.Code`,
// `ae.ErrorCode()`) of a value that carries no other error
// (carriesNoError), not the error's text (`err.Error()`) nor what a
// function makes of the error (`f(err)`, which may be its text too).
// base is the value the code is read from (ae of ae.ErrorCode()).
func (in *interp) specificCode(e ast.Expr, v constant.Value) (base ast.Expr, ok bool) {
	if v.Kind() != constant.String || catalog.OutageCode(constant.StringVal(v)) {
		return nil, false
	}
	var sel *ast.SelectorExpr
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.SelectorExpr:
		s := in.info.Selections[x]
		if s == nil || s.Kind() != types.FieldVal {
			return nil, false
		}
		sel = x
	case *ast.CallExpr:
		fs, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr)
		if !ok || len(x.Args) != 0 {
			return nil, false
		}
		s := in.info.Selections[fs]
		if s == nil || s.Kind() != types.MethodVal || isErrorMethod(s.Obj()) {
			return nil, false
		}
		sel = fs
	default:
		return nil, false
	}
	// ce.Op of an error that wraps another (a context's error among
	// them) names the call, not the failure.
	t := in.info.TypeOf(sel.X)
	if t == nil || !carriesNoError(t) {
		return nil, false
	}
	return sel.X, true
}

// isErrorMethod reports whether obj is the Error method of the error
// interface or of a type that implements it.
func isErrorMethod(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Name() != "Error" {
		return false
	}
	sig := fn.Signature()
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
		return false
	}
	recv := sig.Recv().Type()
	return types.Implements(recv, errorIface) || types.Implements(types.NewPointer(recv), errorIface) || types.IsInterface(recv)
}

// cancelProofCode reports whether t is one of catalog.CancelCodes' types
// and v a value of it that no cancellation gives.
func cancelProofCode(t types.Type, v constant.Value) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || v == nil || v.Kind() != constant.Int {
		return false
	}
	codes, ok := catalog.CancelCodes[[2]string{n.Obj().Pkg().Path(), n.Obj().Name()}]
	if !ok {
		return false
	}
	k, exact := constant.Int64Val(v)
	return exact && !slices.Contains(codes, k)
}

// derivedFrom is what a path knows of a value made by a call given an
// operation's error (`st, ok := status.FromError(err)`): which error it
// was made from, so that a code read from it (`st.Code() ==
// codes.Unavailable`) picks out that operation's failure as `f(err) ==
// k` does.
type derivedFrom struct{ key any }

// derivedVar returns the operation's error a variable was made from.
func (in *interp) derivedVar(id *ast.Ident, s *state) (any, bool) {
	obj := in.objOf(id)
	if obj == nil {
		return nil, false
	}
	def, _ := s.boolDef(obj)
	d, ok := def.(derivedFrom)
	if !ok {
		return nil, false
	}
	_, ok = s.slot(d.key)
	return d.key, ok
}

// derivedFromErr returns what a value call makes is derived from: the
// slot of the operation's error call is given, when call is no
// operation and no conversion.
func (in *interp) derivedFromErr(call *ast.CallExpr, s *state) *derivedFrom {
	if call == nil || in.isOp(call) {
		return nil
	}
	if tv, ok := in.info.Types[call.Fun]; ok && tv.IsType() {
		return nil
	}
	for _, a := range call.Args {
		if key, _, ok := in.errKey(a, s); ok {
			if _, isCall := key.(*ast.CallExpr); !isCall {
				return &derivedFrom{key: key}
			}
		}
	}
	return nil
}

// isZeroConst reports whether v is a zero number or string.
func isZeroConst(v constant.Value) bool {
	switch v.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(v) == 0
	case constant.String:
		return constant.StringVal(v) == ""
	}
	return false
}

// sentinelIs reports whether call is `S.Is(err)`: the method of the
// errors package's Is protocol (a catalog MatchMethod row, `Is(error)
// bool` on an error type) called on a package-level error S.
func (in *interp) sentinelIs(fn *types.Func, call *ast.CallExpr) bool {
	if fn == nil || !catalog.ProtocolMethod(catalog.MatchMethod, fn.Name()) {
		return false
	}
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 ||
		!analysisutil.IsErrorType(sig.Params().At(0).Type()) || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return false
	}
	if !types.Implements(sig.Recv().Type(), errorIface) && !types.Implements(types.NewPointer(sig.Recv().Type()), errorIface) {
		return false
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && isSentinel(in.info, sel.X)
}
