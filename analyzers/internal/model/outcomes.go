package model

import (
	"go/ast"
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
