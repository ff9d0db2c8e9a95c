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
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// forget drops what is known about the variables assigned by lhs.
func (in *interp) forget(lhs []ast.Expr, s *state) *state {
	s = s.clone()
	for _, l := range lhs {
		if obj := in.objOf(l); obj != nil {
			s.overwrite(obj)
			s.setVal(obj, nil)
			s.setBoolDef(obj, nil)
		}
	}
	return s
}

func identsToExprs(ids []*ast.Ident) []ast.Expr {
	out := make([]ast.Expr, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

func (in *interp) objOf(e ast.Expr) types.Object {
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	if obj := in.info.Defs[id]; obj != nil {
		return obj
	}
	return in.info.Uses[id]
}

func (in *interp) trackedIdent(e ast.Expr) types.Object {
	obj := in.objOf(e)
	if obj != nil && in.track[obj] {
		return obj
	}
	return nil
}

func (in *interp) assign(st *ast.AssignStmt, s *state) *state {
	switch st.Tok {
	case token.DEFINE, token.ASSIGN:
		return in.bind(st.Lhs, st.Rhs, st.Tok == token.DEFINE, s)
	default:
		// x op= y
		s = s.clone()
		in.noteDelayVal(st.Lhs[0], st, s)
		if obj := in.trackedIdent(st.Lhs[0]); obj != nil {
			v, ok1 := s.val(obj)
			r, ok2 := in.eval(st.Rhs[0], s)
			if ok1 && ok2 {
				if nv, ok := binaryOp(v, assignOp(st.Tok), r); ok {
					s.setVal(obj, nv)
					return s
				}
			}
			s.setVal(obj, nil)
		}
		return s
	}
}

func assignOp(tok token.Token) token.Token {
	switch tok {
	case token.ADD_ASSIGN:
		return token.ADD
	case token.SUB_ASSIGN:
		return token.SUB
	case token.MUL_ASSIGN:
		return token.MUL
	case token.QUO_ASSIGN:
		return token.QUO
	case token.REM_ASSIGN:
		return token.REM
	case token.SHL_ASSIGN:
		return token.SHL
	case token.SHR_ASSIGN:
		return token.SHR
	}
	return token.ILLEGAL
}

// bind interprets lhs = rhs (or a var declaration).
func (in *interp) bind(lhs, rhs []ast.Expr, define bool, s *state) *state {
	if s2, ok := in.bindRecv(lhs, rhs, s); ok {
		return s2 // err := <-errc: an attempt's outcome
	}
	s = s.clone()
	// e, ok := err.(*APIError): ok says the operation failed with an
	// error of that type.
	if len(rhs) == 1 && len(lhs) == 2 {
		if ta, isTA := analysisutil.Unparen(rhs[0]).(*ast.TypeAssertExpr); isTA && ta.Type != nil {
			if id, isId := in.unwrapped(ta.X).(*ast.Ident); isId {
				if key, _, ok := in.errKey(id, s); ok {
					for i, l := range lhs {
						if obj := in.objOf(l); obj != nil {
							s.overwrite(obj)
							s.setVal(obj, nil)
							s.setBoolDef(obj, nil)
							if i == 1 {
								s.setBoolDef(obj, assertOK{key: key})
							}
						}
					}
					return s
				}
			}
		}
	}
	// A single call with several results.
	if len(rhs) == 1 && len(lhs) > 1 {
		if call, ok := analysisutil.Unparen(rhs[0]).(*ast.CallExpr); ok {
			if src := in.verdictOn(call, s); src != nil && len(lhs) == 2 {
				// retry, err := shouldRetry(res, err): a decision about
				// an operation's error, returning it (or one made from
				// it): the bool is a predicate over it, the error is
				// still that operation's outcome.
				for i, l := range lhs {
					obj := in.objOf(l)
					if obj == nil {
						continue
					}
					s.overwrite(obj)
					s.setVal(obj, nil)
					s.setBoolDef(obj, nil)
					if i == 0 {
						s.setBoolDef(obj, ast.Expr(call))
					} else {
						c := *src
						c.key = obj
						s.setSlot(c)
					}
				}
				return s
			}
		}
		if call, ok := analysisutil.Unparen(rhs[0]).(*ast.CallExpr); ok && in.isOp(call) {
			in.bindOp(lhs, call, s)
			return s
		}
		call, _ := analysisutil.Unparen(rhs[0]).(*ast.CallExpr)
		res := in.results(call)
		from := in.derivedFromErr(call, s)
		for i, l := range lhs {
			if obj := in.objOf(l); obj != nil {
				s.overwrite(obj)
				s.setVal(obj, nil)
				s.setBoolDef(obj, nil)
				// retry, reason := c.shouldRetry(err, resp, n): a
				// decision about the operation's results.
				if call != nil && i < len(res) && analysisutil.IsBool(res[i]) && in.judgesOps(call, s) {
					s.setBoolDef(obj, ast.Expr(call))
				}
				// st, ok := status.FromError(err): a value made from the
				// operation's error, whose code says which failure it is.
				if from != nil && i == 0 && i < len(res) && !analysisutil.IsBool(res[i]) && !analysisutil.IsErrorType(res[i]) {
					s.setBoolDef(obj, *from)
				}
			}
		}
		return s
	}
	if len(rhs) == 0 {
		// var x T: the zero value.
		for _, l := range lhs {
			obj := in.objOf(l)
			if obj == nil {
				continue
			}
			s.overwrite(obj)
			s.setBoolDef(obj, nil)
			if in.track[obj] {
				s.setVal(obj, zeroValue(obj.Type()))
			}
		}
		return s
	}
	// Evaluate all right-hand sides first (x, y = y, x).
	type rv struct {
		v    constant.Value
		sl   *slot
		call *ast.CallExpr
		expr ast.Expr
	}
	vals := make([]rv, len(rhs))
	for i, r := range rhs {
		r = analysisutil.Unparen(r)
		vals[i].expr = r
		if v, ok := in.eval(r, s); ok {
			vals[i].v = v
		}
		if call, ok := r.(*ast.CallExpr); ok && in.isOp(call) {
			vals[i].call = call
			continue
		}
		if src := in.errSource(r, s); src != nil {
			vals[i].sl = src
		}
	}
	for i, l := range lhs {
		if i >= len(vals) {
			break
		}
		obj := in.objOf(l)
		if obj == nil {
			continue
		}
		r := vals[i]
		if r.call != nil {
			in.bindOp([]ast.Expr{l}, r.call, s)
			continue
		}
		s.overwrite(obj)
		in.noteDelayVal(l, r.expr, s)
		if r.sl != nil {
			c := *r.sl
			c.key = obj
			s.setSlot(c)
		}
		if in.track[obj] {
			s.setVal(obj, r.v)
		} else {
			s.setVal(obj, nil)
		}
		if analysisutil.IsBool(obj.Type()) && r.v == nil && in.mentionsTracked(r.expr, s) {
			s.setBoolDef(obj, r.expr)
		} else {
			s.setBoolDef(obj, nil)
		}
	}
	return s
}

// bindOp records a fresh operation result in the variables lhs.
func (in *interp) bindOp(lhs []ast.Expr, call *ast.CallExpr, s *state) {
	if s.opIter && in.resume != nil && in.resume.firstNext {
		for _, l := range lhs {
			if sl, ok := s.slot(in.objOf(l)); ok && sl.op == in.resume.first && sl.status() == stOK {
				s.firstOK = true // the fetch's success, about to be overwritten
			}
		}
	}
	in.startOp(s, call)
	if in.isDelayCall(call) {
		s.delayed, s.delayMay = true, false // an operation that also waits (a helper that retries)
	} else if in.opMayWait(call) {
		s.delayed, s.delayMay = true, true
	}
	res := in.results(call)
	judges := in.judgedResps(call, s)
	var errObj, respObj types.Object
	var partials []types.Object
	for i, l := range lhs {
		obj := in.objOf(l)
		if obj == nil || i >= len(res) {
			continue
		}
		switch {
		case analysisutil.IsErrorType(res[i]):
			errObj = obj
		case isHTTPResponse(res[i]):
			respObj = obj
		case analysisutil.IsBool(res[i]) && (in.judgesOps(call, s) || ownVerdict(lhs, res, i)):
			// a decision about earlier results, or about its own, not a
			// partial result
		case analysisutil.IsNamedType(res[i], "time", "Duration") && slices.ContainsFunc(res[:i], analysisutil.IsBool):
			// retry, wait, err := c.shouldRetry(resp, err): the wait that
			// goes with the decision, no partial result
		default:
			partials = append(partials, obj)
		}
	}
	if errObj == nil && respObj == nil {
		if obj := in.errFieldStore(lhs, res); obj != nil {
			// r.Val, r.Err = get(): the outcome stored in a local
			// result's error field; the result carries it, as res :=
			// do(ctx) does (below), its other fields the data.
			for _, o := range partials {
				s.overwrite(o)
				s.setVal(o, nil)
				s.setBoolDef(o, nil)
			}
			s.overwrite(obj)
			s.setVal(obj, nil)
			s.setBoolDef(obj, nil)
			s.setSlot(slot{key: obj, carrier: true, partials: append(partials, obj), op: call, judges: judges})
			return
		}
	}
	if errObj == nil && respObj == nil && len(res) == 1 && len(partials) == 1 && waits.ErrorField(in.pkg, res[0]) != nil {
		// res := do(ctx): the result carries the outcome in its error
		// field (res.Err), and the data beside it.
		obj := partials[0]
		s.overwrite(obj)
		s.setVal(obj, nil)
		s.setBoolDef(obj, nil)
		s.setSlot(slot{key: obj, carrier: true, partials: partials, op: call, judges: judges})
		return
	}
	for i, l := range lhs {
		obj := in.objOf(l)
		if obj == nil {
			continue
		}
		s.overwrite(obj)
		s.setVal(obj, nil)
		s.setBoolDef(obj, nil)
		if i >= len(res) {
			continue
		}
		switch obj {
		case errObj:
			session := in.sessions != nil && in.sessions(analysisutil.Callee(in.info, call))
			s.setSlot(slot{key: obj, partials: partials, op: call, judges: judges, session: session})
		case respObj:
			s.setSlot(slot{key: obj, isResp: true, mask: fullMask, op: call})
		default:
			// retry, err := c.shouldRetry(resp, err): a bool decided from
			// an earlier operation's results is a predicate over them.
			if analysisutil.IsBool(res[i]) && in.judgesOps(call, s) {
				s.setBoolDef(obj, ast.Expr(call))
			} else if analysisutil.IsBool(res[i]) && ownVerdict(lhs, res, i) && errObj != nil {
				s.setBoolDef(obj, opVerdict{err: errObj, op: call})
			}
		}
	}
}

// errFieldStore returns the local variable r when the assignment of an
// operation's results res to lhs stores its error in r's error field
// (`r.Val, r.Err = get()`: waits.ErrorField of r's type), or nil.
func (in *interp) errFieldStore(lhs []ast.Expr, res []types.Type) types.Object {
	for i, l := range lhs {
		if i >= len(res) || !analysisutil.IsErrorType(res[i]) {
			continue
		}
		sel, ok := analysisutil.Unparen(l).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		x := in.objOf(sel.X)
		if x == nil || !provenance.IsLocal(x) {
			continue
		}
		if f, ok := in.info.Uses[sel.Sel].(*types.Var); ok && f == waits.ErrorField(in.pkg, x.Type()) {
			return x
		}
	}
	return nil
}

// judgesOps reports whether call takes the result of an operation that s
// tracks (its error or its response) as an argument.
func (in *interp) judgesOps(call *ast.CallExpr, s *state) bool {
	for _, a := range call.Args {
		a = analysisutil.Unparen(a)
		if sel, ok := a.(*ast.SelectorExpr); ok {
			// classify(resp.StatusCode, codes): a field of a response.
			if obj := in.objOf(sel.X); obj != nil {
				if sl, ok := s.slot(obj); ok && sl.isResp {
					return true
				}
			}
		}
		if id, ok := a.(*ast.Ident); ok {
			if obj := in.objOf(id); obj != nil {
				if _, ok := s.slot(obj); ok {
					return true
				}
			}
		}
	}
	return false
}

// judgedResps returns the responses that call is given to judge: the
// response variables tracked on the path among the arguments of a call
// whose only result is an error (`err = checkResponse(resp)`,
// `err = autorest.Respond(resp, ...)`). A call that also returns data
// (`body, err := read(resp)`) reads the response rather than judging it.
func (in *interp) judgedResps(call *ast.CallExpr, s *state) []any {
	res := in.results(call)
	if len(res) != 1 || !analysisutil.IsErrorType(res[0]) {
		return nil
	}
	var out []any
	for _, a := range call.Args {
		if obj := in.objOf(a); obj != nil {
			if sl, ok := s.slot(obj); ok && sl.isResp {
				out = append(out, obj)
			}
		}
	}
	return out
}

// errSource returns the slot whose status an assigned expression carries:
// `lastErr = err`, `err = fmt.Errorf("...: %w", err)`.
func (in *interp) errSource(e ast.Expr, s *state) *slot {
	switch e := e.(type) {
	case *ast.Ident:
		if obj := in.objOf(e); obj != nil {
			if sl, ok := s.slot(obj); ok {
				return &sl
			}
		}
	case *ast.SelectorExpr:
		// err = res.Error: the error carried in an operation's other
		// result is that operation's outcome too, not yet examined; so is
		// a field of a concrete error type (err = res.APIError, an
		// embedded *Error the API decoded into the result).
		if tv, ok := in.info.Types[e]; ok && carriesError(tv.Type) {
			if obj := in.objOf(e.X); obj != nil {
				for _, sl := range s.slots {
					if !sl.isResp && slices.Contains(sl.partials, obj) {
						// (the carrier's own error field too: the
						// result of `res := do(ctx)` is its partial)
						c := sl
						c.st, c.carrier = stUnknown, false
						return &c
					}
				}
			}
		}
	case *ast.CallExpr:
		if tv, ok := in.info.Types[e]; ok && analysisutil.IsErrorType(tv.Type) {
			for _, a := range e.Args {
				if sl := in.errSource(analysisutil.Unparen(a), s); sl != nil && !sl.isResp {
					return sl
				}
			}
		}
	}
	return nil
}

func zeroValue(t types.Type) constant.Value {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return nil
	}
	switch {
	case b.Info()&types.IsInteger != 0:
		return constant.MakeInt64(0)
	case b.Info()&types.IsBoolean != 0:
		return constant.MakeBool(false)
	}
	return nil
}

// verdictOn returns the slot of the operation error that call decides
// about: a call whose results are (bool, error) given an error the path
// tracks (`retry, err := shouldRetry(res, err)`); nil otherwise.
func (in *interp) verdictOn(call *ast.CallExpr, s *state) *slot {
	res := in.results(call)
	if len(res) != 2 || !analysisutil.IsBool(res[0]) || !analysisutil.IsErrorType(res[1]) {
		return nil
	}
	for _, a := range call.Args {
		id, ok := analysisutil.Unparen(a).(*ast.Ident)
		if !ok || !analysisutil.IsErrorType(in.info.TypeOf(id)) {
			continue
		}
		if obj := in.objOf(id); obj != nil {
			if sl, ok := s.slot(obj); ok && !sl.isResp {
				return &sl
			}
		}
	}
	return nil
}

// noteDelayVal records on s, a path's own copy, that it gave lhs the
// value v (an expression, or the statement `wait *= 2`) when lhs is a
// variable the judged loop's waits read their duration from
// (resumeSeen.delayVars).
func (in *interp) noteDelayVal(lhs ast.Expr, v ast.Node, s *state) {
	if in.resume == nil || len(in.resume.delayVars) == 0 {
		return
	}
	if obj := in.objOf(lhs); obj != nil && in.resume.delayVars[obj] {
		s.delayVal = v
	}
}

// unwrapped returns e with the calls of catalog Unwrapper rows around it
// taken off (`errors.Cause(err)` is err): a type asserted on what they
// return is asserted on the error they were given, as errors.As would
// find it.
func (in *interp) unwrapped(e ast.Expr) ast.Expr {
	for range 4 {
		call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			break
		}
		fn := analysisutil.Callee(in.info, call)
		if fn == nil {
			break
		}
		row := catalogRow(fn)
		if row == nil || row.Role != catalog.Unwrapper {
			break
		}
		e = call.Args[0]
	}
	return analysisutil.Unparen(e)
}
