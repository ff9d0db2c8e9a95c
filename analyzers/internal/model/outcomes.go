package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// carriesError reports whether a field of type t holds an outcome: an
// error, or a pointer to a concrete error type (an embedded *APIError
// the answer was decoded into), nil when there was none. An error code
// of a named number type (a KError whose zero is "no error") is a value
// compared with codes, not an outcome that is there or not.
func carriesError(t types.Type) bool {
	if analysisutil.IsErrorType(t) {
		return true
	}
	_, ptr := t.Underlying().(*types.Pointer)
	return ptr && types.Implements(t, errorIface)
}

// resultFailure handles a nil test of an error field of an operation's
// other result (`res.Error`, an embedded `*APIError`) where the
// operation's own error is known nil: the API answered, and reported a
// failure in what it answered. A non-nil field is that operation's
// failure; it returns the state that learns it.
func (in *interp) resultFailure(sel *ast.SelectorExpr, s *state) (*state, bool) {
	tv, ok := in.info.Types[sel]
	if !ok || !carriesError(tv.Type) {
		return nil, false
	}
	obj := in.objOf(sel.X)
	if obj == nil {
		return nil, false
	}
	for _, sl := range s.slots {
		if sl.isResp || sl.carrier || sl.status() != stOK || !slices.Contains(sl.partials, obj) {
			continue
		}
		f := s.clone()
		failed := sl
		failed.st = stFailed
		f.setSlot(failed)
		return f, true
	}
	return nil, false
}

// emptyCompare handles a nil comparison of an operation's other result
// (ws == nil, resp != nil): where the operation is known to have
// succeeded, the nil branch learns that it answered with nothing
// (state.empty). Nothing else is refined.
func (in *interp) emptyCompare(e *ast.BinaryExpr, s *state) (ts, fs []*state, ok bool) {
	var other ast.Expr
	switch {
	case in.isNil(e.Y):
		other = e.X
	case in.isNil(e.X):
		other = e.Y
	default:
		return nil, nil, false
	}
	id, isID := analysisutil.Unparen(other).(*ast.Ident)
	if !isID {
		return nil, nil, false
	}
	obj := in.objOf(id)
	if obj == nil {
		return nil, nil, false
	}
	var op *ast.CallExpr
	for _, sl := range s.slots {
		if sl.isResp && sl.key == obj || !sl.isResp && slices.Contains(sl.partials, obj) {
			op = sl.op
			break
		}
	}
	if op == nil {
		return nil, nil, false
	}
	isNil := s
	for _, sl := range s.slots {
		if !sl.isResp && sl.op == op && sl.status() == stOK {
			isNil = s.clone()
			isNil.empty = true
			break
		}
	}
	if e.Op == token.EQL {
		return []*state{isNil}, []*state{s}, true
	}
	return []*state{s}, []*state{isNil}, true
}

// resultBeforeError reports whether e (an && or ||) tests a result of an
// operation for nil before it tests that operation's error for nil (`ws
// == nil || err != nil`, `resp != nil && err == nil`): both plain
// comparisons, so the test may be read the other way round, the error
// first, and the result's test then knows how the call went.
func (in *interp) resultBeforeError(e *ast.BinaryExpr, s *state) bool {
	nilOf := func(x ast.Expr) types.Object {
		be, ok := analysisutil.Unparen(x).(*ast.BinaryExpr)
		if !ok || be.Op != token.EQL && be.Op != token.NEQ {
			return nil
		}
		other := be.X
		if in.isNil(be.X) {
			other = be.Y
		} else if !in.isNil(be.Y) {
			return nil
		}
		id, ok := analysisutil.Unparen(other).(*ast.Ident)
		if !ok {
			return nil
		}
		return in.objOf(id)
	}
	res, errv := nilOf(e.X), nilOf(e.Y)
	if res == nil || errv == nil {
		return false
	}
	var op *ast.CallExpr
	for _, sl := range s.slots {
		if sl.isResp && sl.key == res || !sl.isResp && slices.Contains(sl.partials, res) {
			op = sl.op
		}
	}
	for _, sl := range s.slots {
		if op != nil && !sl.isResp && sl.key == errv && sl.op == op {
			return true
		}
	}
	return false
}
