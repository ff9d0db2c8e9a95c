package model

// Switches: the interpreter's switch and type switch statements, whose
// cases narrow what is known of an operation's outcome, and breaks that
// leave them.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// breakToNormal turns breaks that target the statement (unlabeled, or
// with its label) into normal completion.
func breakToNormal(outs []outcome, label string) []outcome {
	for i := range outs {
		if outs[i].kind == oBreak && (outs[i].label == "" || outs[i].label == label) {
			outs[i].kind = oNormal
			outs[i].label = ""
		}
	}
	return outs
}

func (in *interp) execSwitch(st *ast.SwitchStmt, s *state, label string) []outcome {
	starts := []*state{s}
	if st.Init != nil {
		starts = nil
		for _, o := range in.execStmt(st.Init, s, "") {
			starts = append(starts, o.s)
		}
	}
	var out []outcome
	for _, s0 := range starts {
		rest := []*state{s0}
		var dflt *ast.CaseClause
		var matched [][]*state // per clause, states entering its body
		clauses := st.Body.List
		matched = make([][]*state, len(clauses))
		for i, c := range clauses {
			cc := c.(*ast.CaseClause)
			if cc.List == nil {
				dflt = cc
				continue
			}
			remaining := rest
			for _, e := range cc.List {
				var cond ast.Expr = e
				if st.Tag != nil {
					cond = &ast.BinaryExpr{X: st.Tag, Op: token.EQL, Y: e, OpPos: e.Pos()}
				}
				var falses []*state
				for _, r := range remaining {
					ts, fs := in.cond(cond, r)
					matched[i] = append(matched[i], ts...)
					falses = append(falses, fs...)
				}
				remaining = falses
			}
			next := remaining
			rest = in.limit(next)
		}
		for i, c := range clauses {
			if c.(*ast.CaseClause) == dflt {
				matched[i] = append(matched[i], rest...)
			}
		}
		if dflt == nil {
			out = append(out, normal(rest)...)
		}
		// Bodies, with fallthrough into the next clause.
		var carry []*state
		for i, c := range clauses {
			cc := c.(*ast.CaseClause)
			entering := append(matched[i], carry...)
			carry = nil
			for _, o := range in.execList(cc.Body, 0, in.limit(entering)) {
				if o.kind == oFallthrough {
					carry = append(carry, o.s)
					continue
				}
				out = append(out, breakToNormal([]outcome{o}, label)...)
			}
		}
	}
	return out
}

func (in *interp) execTypeSwitch(st *ast.TypeSwitchStmt, s *state, label string) []outcome {
	if st.Init != nil {
		var out []outcome
		for _, o := range in.execStmt(st.Init, s, "") {
			out = append(out, in.execTypeSwitch(&ast.TypeSwitchStmt{Switch: st.Switch, Assign: st.Assign, Body: st.Body}, o.s, label)...)
		}
		return out
	}
	// switch err.(type) { case *net.OpError: ... }: a case of a type
	// identifies the failure.
	var subject ast.Expr
	switch a := st.Assign.(type) {
	case *ast.AssignStmt:
		if len(a.Rhs) == 1 {
			subject = a.Rhs[0]
		}
	case *ast.ExprStmt:
		subject = a.X
	}
	onErr := false
	var errX ast.Expr
	if ta, ok := analysisutil.Unparen(subject).(*ast.TypeAssertExpr); ok {
		if id, ok := in.unwrapped(ta.X).(*ast.Ident); ok {
			_, _, onErr = in.errKey(id, s)
			errX = id
		}
	}
	// case nil: the error is nil there (`switch err.(type) { case nil:
	// return v, nil }`), and not nil in every other case.
	var nilExpr ast.Expr
	if onErr {
		for _, c := range st.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if in.isNil(e) {
					nilExpr = e
				}
			}
		}
	}
	isNil := func(ts bool) []*state {
		if nilExpr == nil {
			return []*state{s}
		}
		t, f := in.cond(&ast.BinaryExpr{X: errX, Op: token.EQL, Y: nilExpr, OpPos: nilExpr.Pos()}, s)
		if ts {
			return t
		}
		return f
	}
	answer := in.answerKey(subject, onErr, s)
	var out []outcome
	hasDefault := false
	for _, c := range st.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			hasDefault = true
		}
		states := []*state{s}
		switch {
		case answer != nil && in.errorCases(cc.List):
			states = []*state{answeredFailure(s, answer)}
		case !onErr:
		case len(cc.List) == 1 && in.isNil(cc.List[0]):
			states = isNil(true)
		case cc.List != nil && !slices.ContainsFunc(cc.List, in.isNil):
			// a case of a type identifies the failure
			states = identify(isNil(false))
		case cc.List == nil:
			states = isNil(false)
		}
		out = append(out, breakToNormal(in.execList(cc.Body, 0, states), label)...)
	}
	if !hasDefault {
		for _, f := range isNil(false) {
			out = append(out, outcome{s: f})
		}
	}
	return out
}

// answerKey returns the slot key of the operation whose other result
// subject asserts (`switch resp.(type)`, resp one of its partials), when
// the switch is not on an error; nil otherwise.
func (in *interp) answerKey(subject ast.Expr, onErr bool, s *state) any {
	ta, ok := analysisutil.Unparen(subject).(*ast.TypeAssertExpr)
	if onErr || !ok {
		return nil
	}
	obj := in.objOf(ta.X)
	if obj == nil {
		return nil
	}
	for _, sl := range s.slots {
		if slices.Contains(sl.partials, obj) {
			return sl.key
		}
	}
	return nil
}

// errorCases reports whether every type a case lists is an error (none
// is nil): on that branch the value is one.
func (in *interp) errorCases(list []ast.Expr) bool {
	for _, e := range list {
		t := in.info.TypeOf(e)
		if t == nil || in.isNil(e) || !types.Implements(t, errorIface) {
			return false
		}
	}
	return len(list) > 0
}

// answeredFailure returns s with the operation at key failed: its answer
// is an error (`case error:` of a switch on the frame it returned, an
// error frame the server sent), though its own error is nil.
func answeredFailure(s *state, key any) *state {
	c := s.clone()
	sl, _ := c.slot(key)
	sl.st = stFailed
	c.setSlot(sl)
	return c
}
