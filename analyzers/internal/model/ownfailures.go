package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// ownFailuresOnly reports whether the operation of the library retry r
// goes round only on failures of its own making, so that the retry is
// Specific: a poll for its request's state, not a retry of an outage.
// Its operation is function literals (r.Ops; none named) that make at
// least one call that can fail, and
//
//   - every call in them that can fail (its last result an error) ends
//     the retry on failure (as FailuresEnd: tested at once, returned
//     through the library's Permanent marker; endedCalls), except the fmt and errors
//     packages' error makers, the marker itself and deferred cleanups;
//     a call that hands back an *http.Response fails that test (a 5xx
//     is an answer, read after it), and so does a read of a field that
//     keeps such a response's status (StatusFieldsFact);
//   - every error it returns that is not nil and not Permanent is the
//     code's own: made of constants, package-level values and locals
//     that hold no error, through fmt and errors alone
//     (`fmt.Errorf("%s: %w", name, errNotYet)`); an error variable
//     is nil where the failure test before it left it so (endedCalls).
//
// A dependency that is down fails the first attempt for good; what
// goes round is an answer that says "not yet" (a record not propagated,
// a job still running), which clients do not reach together.
func ownFailuresOnly(info *types.Info, r *Retry, statusFields map[string]bool) bool {
	if r.Kind != LibraryRetry || len(r.Ops) == 0 || len(r.OpFuncs) > 0 {
		return false
	}
	asks := false // some call asks a dependency, whose failures end the retry
	for _, op := range r.Ops {
		ended, tested := endedCalls(info, op)
		ok := true
		ast.Inspect(op, func(n ast.Node) bool {
			if !ok {
				return false
			}
			switch x := n.(type) {
			case *ast.FuncLit:
				ok = false // run who knows when: not read here
			case *ast.DeferStmt:
				return false // cleanup after the attempt
			case *ast.ReturnStmt:
				if len(x.Results) == 0 {
					ok = false // named results: not followed
				} else if !ownError(info, x.Results[len(x.Results)-1], tested) {
					ok = false
				}
			case *ast.CallExpr:
				if failing(info, x) && !errorMaker(info, x) && !isPermanentCall(info, x) {
					if !ended[x] {
						ok = false
					}
					asks = true
				}
			case *ast.SelectorExpr:
				// res.Status of a type that keeps an HTTP response's
				// status (StatusFieldsFact): a 5xx read as an answer.
				if sel, found := info.Selections[x]; found && sel.Kind() == types.FieldVal && statusFields[statusFieldKey(sel.Recv(), x.Sel.Name)] {
					ok = false
				}
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	// An operation that asks nothing (`return &StatusError{Code: 503}`,
	// a test's stand-in for a dependency) is no poll of an answer.
	return asks
}

// failing reports whether call can fail: its last result is an error.
func failing(info *types.Info, call *ast.CallExpr) bool {
	sig, ok := types.Unalias(info.TypeOf(call.Fun)).Underlying().(*types.Signature)
	return ok && sig.Results().Len() > 0 && analysisutil.IsErrorType(sig.Results().At(sig.Results().Len()-1).Type())
}

// errorMaker reports whether call makes or wraps an error value from its
// arguments (a catalog ErrorMaker row: errors.New, fmt.Errorf): it does
// no work that fails.
func errorMaker(info *types.Info, call *ast.CallExpr) bool {
	return callOfRole(info, call, catalog.ErrorMaker)
}

// isPermanentCall reports whether call is the retry library's Permanent
// marker (backoff.Permanent, retry.Unrecoverable).
func isPermanentCall(info *types.Info, call *ast.CallExpr) bool {
	return callOfRole(info, call, catalog.Permanent)
}

// ownError reports whether e, the error an operation returns, is nil,
// Permanent, or an error of the code's own (see ownFailuresOnly).
func ownError(info *types.Info, e ast.Expr, tested map[*types.Var][2]token.Pos) bool {
	e = analysisutil.Unparen(e)
	if info.Types[e].IsNil() {
		return true
	}
	if c, ok := e.(*ast.CallExpr); ok && isPermanentCall(info, c) {
		return true
	}
	own := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !own {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			own = false
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
				return true // a conversion
			}
			own = errorMaker(info, x)
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && !v.IsField() && (v.Pkg() == nil || v.Parent() != v.Pkg().Scope()) && holdsError(v.Type()) {
				if r, ok := tested[v]; !ok || x.Pos() < r[0] || x.Pos() >= r[1] {
					own = false // a failure handed on
				}
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal && holdsError(sel.Type()) {
				own = false // res.Err: a failure the answer carries
			}
		}
		return own
	})
	return own
}

// holdsError reports whether a value of type t can hold an error: it
// implements error, or is an interface (any).
func holdsError(t types.Type) bool {
	if types.IsInterface(t) {
		return true
	}
	return types.Implements(t, errorType) || types.Implements(types.NewPointer(t), errorType)
}

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// endedCalls finds, in one walk of body, the calls whose every failure
// ends the retry (as FailuresEnd: the error they give, tested at once for
// `!= nil`, is returned through the Permanent marker; none hands back an
// *http.Response), and the error variables known to be nil over a range
// of body: such a call's error, assigned once in body, is nil for the
// rest of the block after that test (for the rest of the if, when the
// call is made in its init).
func endedCalls(info *types.Info, body ast.Node) (ended map[*ast.CallExpr]bool, nilAfter map[*types.Var][2]token.Pos) {
	assigned := map[*types.Var]int{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if v := assignedVar(info, l); v != nil {
					assigned[v]++
				}
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				if v, ok := analysisutil.ReferredObject(info, x.X).(*types.Var); ok {
					assigned[v] += 2 // its address taken: written who knows where
				}
			}
		}
		return true
	})
	ended, nilAfter = map[*ast.CallExpr]bool{}, map[*types.Var][2]token.Pos{}
	end := func(as *ast.AssignStmt, st *ast.IfStmt, from, to token.Pos) {
		if len(as.Rhs) != 1 {
			return
		}
		call, ok := analysisutil.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || returnsResponse(info, call) || !failureEnds(info, as, st) {
			return
		}
		ended[call] = true
		if v := assignedVar(info, as.Lhs[len(as.Lhs)-1]); v != nil && assigned[v] == 1 {
			nilAfter[v] = [2]token.Pos{from, to}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if st, ok := n.(*ast.IfStmt); ok {
			if as, ok := st.Init.(*ast.AssignStmt); ok {
				end(as, st, st.Body.End(), st.End())
			}
		}
		list := analysisutil.StmtList(n)
		for i, s := range list {
			as, ok := s.(*ast.AssignStmt)
			if !ok || i+1 >= len(list) {
				continue
			}
			if next, ok := list[i+1].(*ast.IfStmt); ok && next.Init == nil {
				end(as, next, next.End(), n.End())
			}
		}
		return true
	})
	return ended, nilAfter
}

// returnsResponse reports whether call hands back an *http.Response.
func returnsResponse(info *types.Info, call *ast.CallExpr) bool {
	sig, ok := types.Unalias(info.TypeOf(call.Fun)).Underlying().(*types.Signature)
	if !ok {
		return false
	}
	for v := range sig.Results().Variables() {
		if analysisutil.IsNamedType(v.Type(), "net/http", "Response") {
			return true
		}
	}
	return false
}

// assignedVar returns the variable that e, the left-hand side of an
// assignment or a declaration, writes (nil for a field or an element).
func assignedVar(info *types.Info, e ast.Expr) *types.Var {
	if id, ok := analysisutil.Unparen(e).(*ast.Ident); ok {
		v, _ := info.ObjectOf(id).(*types.Var)
		return v
	}
	return nil
}
