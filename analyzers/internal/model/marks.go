package model

// Marks: what a path learns from a condition about the failure it had
// (its slot's status; identified, of an outage kind or not, of an own
// error type, unsent), and the paths that survive a refinement.

import (
	"go/ast"
	"go/types"
)

// refine returns s with the slot at key set to st, or nil if that
// contradicts what s knows.
func refine(s *state, key any, st status) *state {
	sl, ok := s.slot(key)
	if !ok {
		sl = slot{key: key}
	}
	switch {
	case sl.st == stOK && st == stFailed, sl.st == stFailed && st == stOK:
		return nil
	case (st == stChecked || st == stMaybe) && (sl.st == stOK || sl.st == stFailed):
		return s // a predicate adds nothing to a known outcome
	}
	c := s.clone()
	sl.st = st
	c.setSlot(sl)
	if st == stOK {
		for _, k := range sl.judges {
			if r, ok := c.slot(k); ok && r.isResp {
				r.accepted = true
				c.setSlot(r)
			}
		}
	}
	return c
}

// identify returns the states of ss marked as having identified which
// failure their operation had (state.identified), of a kind that may be
// an outage (state.outage).
func identify(ss []*state) []*state {
	return identifyAs(ss, true)
}

// identifyAs is identify for a failure that is an outage's or not.
func identifyAs(ss []*state, outage bool) []*state {
	out := make([]*state, 0, len(ss))
	for _, x := range ss {
		if x == nil {
			continue
		}
		if !x.identified || outage && !x.outage {
			x = x.clone()
			x.identified = true
			x.outage = x.outage || outage
		}
		out = append(out, x)
	}
	return out
}

// narrowTo returns ss marked as having identified one failure of no
// outage kind: a test that narrows what the path knew (errors.As into an
// API error interface, an outage family) to one code of the request's
// own.
func narrowTo(ss []*state) []*state {
	out := make([]*state, 0, len(ss))
	for _, x := range ss {
		if x == nil {
			continue
		}
		if !x.identified || x.outage {
			x = x.clone()
			x.identified, x.outage = true, false
		}
		out = append(out, x)
	}
	return out
}

// markOwnType returns ss marked as having identified an error of a
// concrete type that wraps no other (state.ownType).
func markOwnType(ss []*state) []*state {
	return mark(ss, func(x *state) *bool { return &x.ownType })
}

// ownErrorType reports whether target, errors.As's second argument
// (&pgErr), points to a variable of a concrete error type that carries
// no other error: no Unwrap method and no field of an error type. A
// context's error, which an attempt cancelled with it returns, is never
// of such a type; a *url.Error or a *net.OpError may wrap one.
func ownErrorType(info *types.Info, target ast.Expr) bool {
	pt, ok := types.Unalias(info.TypeOf(target)).(*types.Pointer)
	if !ok || types.IsInterface(pt.Elem()) {
		return false
	}
	return carriesNoError(pt.Elem())
}

// carriesNoError reports whether t, a type that holds an error, carries
// no other error: no Unwrap method, and (a struct or a pointer to one)
// no field of an error type. An interface carries none when Unwrap is
// not among its methods (an SDK's API error: code, message, fault).
func carriesNoError(t types.Type) bool {
	if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Unwrap"); obj != nil {
		return false
	}
	if types.IsInterface(t) {
		return true
	}
	named := t
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		named = p.Elem()
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if types.Implements(st.Field(i).Type(), errorIface) {
			return false
		}
	}
	return true
}

// markUnsent returns ss marked as knowing the failure they identified to
// be one with which the request never reached the server
// (state.unsent).
func markUnsent(ss []*state) []*state {
	return mark(ss, func(x *state) *bool { return &x.unsent })
}

// mark returns the states of ss with the flag that field points to set,
// cloning those that had it clear.
func mark(ss []*state, field func(*state) *bool) []*state {
	out := make([]*state, 0, len(ss))
	for _, x := range ss {
		if x == nil {
			continue
		}
		if !*field(x) {
			x = x.clone()
			*field(x) = true
		}
		out = append(out, x)
	}
	return out
}

func nonNil(ss ...*state) []*state {
	var out []*state
	for _, s := range ss {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}
