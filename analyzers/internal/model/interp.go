package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// The interpreter walks the statements of one loop iteration along every
// path, keeping for each path what it knows about the fallible operations
// (see status) and the concrete values of local counters and flags. It is
// the engine behind the hand-written retry recognition (retryloop.go).

type okind uint8

const (
	oNormal okind = iota
	oBreak
	oContinue
	oReturn
	oGoto
	oFallthrough
	oDead // panic, os.Exit, log.Fatal...
)

type outcome struct {
	kind  okind
	label string
	s     *state
}

// Limits: a loop whose paths exceed them is not judged (not a retry).
// The step budget of a function is shared by all its loops and grows with
// its size, so that the model's cost stays linear in the code however the
// loops nest (a loop nested in n others is interpreted with each of them).
const (
	maxStates     = 128    // states alive at one program point
	maxSteps      = 200000 // statements interpreted for one loop
	stepsPerNode  = 100    // a function's step budget per syntax node...
	stepsFunction = 60000  // ...plus this much
	maxLayers     = 1000   // iterations simulated to count attempts
	maxInner      = 12     // fixpoint rounds for a loop nested in the judged one
)

type interp struct {
	info    *types.Info
	pkgVals func(*types.Var) (constant.Value, bool) // package-level vars with constant values
	opVars  map[types.Object]bool                   // vars that hold an operation's error
	track   map[types.Object]bool                   // local ints and bools tracked concretely
	steps   int
	budget  int // steps left for the function's loops
	fnSize  int // syntax nodes of the function: what each judged loop's scans of it cost
	labels  map[*ast.Stmt]map[string]int
	aborted bool
	// immediate is set when a later iteration's first operation runs with
	// no wait since the previous iteration's operations: a retry storm.
	immediate  bool
	delayFuncs map[*types.Func]bool // this package's functions that wait
	pureWaits  map[*types.Func]bool // ...of which those that only wait
	imports    func(*types.Func) *WaitFact
	boundVars  map[types.Object]bool // variables of the judged loop's condition
}

// startOp notes that an operation is about to run on path s.
func (in *interp) startOp(s *state) {
	if !s.opIter && s.attempts > 0 && !s.delayed && !s.boundFork {
		in.immediate = true
	}
	s.opIter = true
	s.delayed = false
	s.boundFork = false
}

// step counts the work of interpreting one statement or condition on the
// path s: one step, plus one for every fact the path carries (copying and
// comparing them is the cost that grows with the function).
func (in *interp) step(s *state) bool {
	in.steps++
	in.budget -= 1 + len(s.slots) + len(s.vals) + len(s.bools)
	if in.steps > maxSteps || in.budget < 0 {
		in.aborted = true
	}
	return !in.aborted
}

func normal(ss []*state) []outcome {
	out := make([]outcome, 0, len(ss))
	for _, s := range ss {
		out = append(out, outcome{kind: oNormal, s: s})
	}
	return out
}

func dedupe(ss []*state) []*state {
	if len(ss) < 2 {
		return ss
	}
	seen := make(map[uint64][]int, len(ss))
	out := ss[:0:0]
next:
	for _, s := range ss {
		h := s.hash()
		for _, i := range seen[h] {
			if equal(s, out[i]) {
				if s.attempts > out[i].attempts {
					out[i] = s
				}
				continue next
			}
		}
		seen[h] = append(seen[h], len(out))
		out = append(out, s)
	}
	return out
}

func (in *interp) limit(ss []*state) []*state {
	ss = dedupe(ss)
	if len(ss) > maxStates {
		in.aborted = true
		return ss[:maxStates]
	}
	return ss
}

// execList runs stmts[start:] from each state and returns how the paths
// leave the list. A goto to a label of this list is followed here.
func (in *interp) execList(list []ast.Stmt, start int, ss []*state) []outcome {
	var done []outcome
	cur := ss
	for i := start; i < len(list) && len(cur) > 0 && !in.aborted; i++ {
		var next []*state
		for _, s := range cur {
			for _, o := range in.execStmt(list[i], s, "") {
				if o.kind == oNormal {
					next = append(next, o.s)
					continue
				}
				if o.kind == oGoto {
					if j := in.labelIndex(list, o.label); j > i {
						// A forward jump within this list.
						done = append(done, in.execList(list, j, []*state{o.s})...)
						continue
					}
				}
				done = append(done, o)
			}
		}
		cur = in.limit(next)
	}
	return append(done, normal(cur)...)
}

// labelIndex returns the index of the statement labeled label in list, or
// -1. The labels of each list are indexed once, so that a goto costs the
// same however long its list is.
func (in *interp) labelIndex(list []ast.Stmt, label string) int {
	if len(list) == 0 {
		return -1
	}
	if in.labels == nil {
		in.labels = map[*ast.Stmt]map[string]int{}
	}
	ix, ok := in.labels[&list[0]]
	if !ok {
		ix = map[string]int{}
		for i, st := range list {
			if l, ok := st.(*ast.LabeledStmt); ok {
				ix[l.Label.Name] = i
			}
		}
		in.labels[&list[0]] = ix
	}
	if i, ok := ix[label]; ok {
		return i
	}
	return -1
}

func (in *interp) execStmt(stmt ast.Stmt, s *state, label string) []outcome {
	if !in.step(s) {
		return nil
	}
	s = in.noteProgress(stmt, s)
	if !s.delayed && in.waits(stmt) {
		s = s.clone()
		s.delayed = true
	}
	switch st := stmt.(type) {
	case *ast.ExprStmt:
		if call, ok := analysisutil.Unparen(st.X).(*ast.CallExpr); ok && in.noReturn(call) {
			return []outcome{{kind: oDead, s: s}}
		}
		return []outcome{{s: s}}
	case *ast.AssignStmt:
		return normal([]*state{in.assign(st, s)})
	case *ast.IncDecStmt:
		s = s.clone()
		if obj := in.trackedIdent(st.X); obj != nil {
			if v, ok := s.val(obj); ok {
				op := token.ADD
				if st.Tok == token.DEC {
					op = token.SUB
				}
				s.setVal(obj, constant.BinaryOp(v, op, constant.MakeInt64(1)))
			}
		}
		return []outcome{{s: s}}
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return []outcome{{s: s}}
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			s = in.bind(identsToExprs(vs.Names), vs.Values, true, s)
		}
		return []outcome{{s: s}}
	case *ast.ReturnStmt:
		return []outcome{{kind: oReturn, s: s}}
	case *ast.BranchStmt:
		lbl := ""
		if st.Label != nil {
			lbl = st.Label.Name
		}
		switch st.Tok {
		case token.BREAK:
			return []outcome{{kind: oBreak, label: lbl, s: s}}
		case token.CONTINUE:
			return []outcome{{kind: oContinue, label: lbl, s: s}}
		case token.GOTO:
			return []outcome{{kind: oGoto, label: lbl, s: s}}
		case token.FALLTHROUGH:
			return []outcome{{kind: oFallthrough, s: s}}
		}
		return []outcome{{s: s}}
	case *ast.BlockStmt:
		return in.execList(st.List, 0, []*state{s})
	case *ast.LabeledStmt:
		return in.execStmt(st.Stmt, s, st.Label.Name)
	case *ast.IfStmt:
		var starts []*state
		if st.Init != nil {
			for _, o := range in.execStmt(st.Init, s, "") {
				starts = append(starts, o.s)
			}
		} else {
			starts = []*state{s}
		}
		var out []outcome
		for _, s0 := range starts {
			ts, fs := in.cond(st.Cond, s0)
			out = append(out, in.execList(st.Body.List, 0, ts)...)
			if st.Else != nil {
				for _, f := range fs {
					out = append(out, in.execStmt(st.Else, f, "")...)
				}
			} else {
				out = append(out, normal(fs)...)
			}
		}
		return out
	case *ast.SwitchStmt:
		return in.execSwitch(st, s, label)
	case *ast.TypeSwitchStmt:
		return in.execTypeSwitch(st, s, label)
	case *ast.SelectStmt:
		var out []outcome
		for _, c := range st.Body.List {
			cc := c.(*ast.CommClause)
			s1 := s
			if cc.Comm != nil {
				s1 = in.noteProgress(cc.Comm, s1)
				if !s1.delayed && in.waits(cc.Comm) {
					s1 = s1.clone()
					s1.delayed = true
				}
			}
			if as, ok := cc.Comm.(*ast.AssignStmt); ok {
				s1 = in.forget(as.Lhs, s1)
			}
			out = append(out, breakToNormal(in.execList(cc.Body, 0, []*state{s1}), label)...)
		}
		return out
	case *ast.ForStmt, *ast.RangeStmt:
		return in.execInnerLoop(st, s, label)
	default:
		// go, defer, send, empty statements: no effect on what we track.
		return []outcome{{s: s}}
	}
}

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
	var out []outcome
	hasDefault := false
	for _, c := range st.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			hasDefault = true
		}
		out = append(out, breakToNormal(in.execList(cc.Body, 0, []*state{s}), label)...)
	}
	if !hasDefault {
		out = append(out, outcome{s: s})
	}
	return out
}

// execInnerLoop runs a loop nested inside the judged loop to a fixpoint:
// its states after the loop are those of zero or more iterations.
func (in *interp) execInnerLoop(stmt ast.Stmt, s *state, label string) []outcome {
	var init, post ast.Stmt
	var cond ast.Expr
	var body *ast.BlockStmt
	switch st := stmt.(type) {
	case *ast.ForStmt:
		init, cond, post, body = st.Init, st.Cond, st.Post, st.Body
	case *ast.RangeStmt:
		body = st.Body
		if st.Tok == token.DEFINE || st.Tok == token.ASSIGN {
			var lhs []ast.Expr
			if st.Key != nil {
				lhs = append(lhs, st.Key)
			}
			if st.Value != nil {
				lhs = append(lhs, st.Value)
			}
			s = in.forget(lhs, s)
		}
	}
	starts := []*state{s}
	if init != nil {
		starts = nil
		for _, o := range in.execStmt(init, s, "") {
			starts = append(starts, o.s)
		}
	}
	var out []outcome
	seen := stateSet{}
	frontier := starts
	for round := 0; round < maxInner && len(frontier) > 0 && !in.aborted; round++ {
		var ts []*state
		for _, f := range frontier {
			if cond == nil {
				ts = append(ts, f)
				if _, isRange := stmt.(*ast.RangeStmt); isRange {
					out = append(out, outcome{s: f}) // zero iterations
				}
				continue
			}
			t, fl := in.cond(cond, f)
			ts = append(ts, t...)
			out = append(out, normal(fl)...)
		}
		var next []*state
		for _, o := range in.execList(body.List, 0, in.limit(ts)) {
			switch {
			case o.kind == oNormal || o.kind == oContinue && (o.label == "" || o.label == label):
				n := o.s
				if post != nil {
					for _, p := range in.execStmt(post, n, "") {
						next = append(next, p.s)
					}
				} else {
					next = append(next, n)
				}
			case o.kind == oBreak && (o.label == "" || o.label == label):
				out = append(out, outcome{s: o.s})
			default:
				out = append(out, o)
			}
		}
		frontier = nil
		for _, n := range in.limit(next) {
			if seen.add(n) {
				frontier = append(frontier, n)
			}
		}
	}
	return out
}

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
	s = s.clone()
	// A single call with several results.
	if len(rhs) == 1 && len(lhs) > 1 {
		if call, ok := analysisutil.Unparen(rhs[0]).(*ast.CallExpr); ok && in.isOp(call) {
			in.bindOp(lhs, call, s)
			return s
		}
		for _, l := range lhs {
			if obj := in.objOf(l); obj != nil {
				s.overwrite(obj)
				s.setVal(obj, nil)
				s.setBoolDef(obj, nil)
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
		if b, ok := obj.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 && r.v == nil && in.mentionsTracked(r.expr, s) {
			s.setBoolDef(obj, r.expr)
		} else {
			s.setBoolDef(obj, nil)
		}
	}
	return s
}

// bindOp records a fresh operation result in the variables lhs.
func (in *interp) bindOp(lhs []ast.Expr, call *ast.CallExpr, s *state) {
	in.startOp(s)
	if in.isDelayCall(call) {
		s.delayed = true // an operation that also waits (a helper that retries)
	}
	res := in.results(call)
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
		case isBool(res[i]) && in.judgesOps(call, s):
			// a decision about earlier results, not a partial result
		default:
			partials = append(partials, obj)
		}
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
			s.setSlot(slot{key: obj, partials: partials, op: call})
		case respObj:
			s.setSlot(slot{key: obj, isResp: true, mask: fullMask, op: call})
		default:
			// retry, err := c.shouldRetry(resp, err): a bool decided from
			// an earlier operation's results is a predicate over them.
			if isBool(res[i]) && in.judgesOps(call, s) {
				s.setBoolDef(obj, ast.Expr(call))
			}
		}
	}
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// judgesOps reports whether call takes the result of an operation that s
// tracks (its error or its response) as an argument.
func (in *interp) judgesOps(call *ast.CallExpr, s *state) bool {
	for _, a := range call.Args {
		if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok {
			if obj := in.objOf(id); obj != nil {
				if _, ok := s.slot(obj); ok {
					return true
				}
			}
		}
	}
	return false
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

func (in *interp) results(call *ast.CallExpr) []types.Type {
	tv, ok := in.info.Types[call]
	if !ok || tv.Type == nil {
		return nil
	}
	if tup, ok := tv.Type.(*types.Tuple); ok {
		out := make([]types.Type, tup.Len())
		for i := range out {
			out[i] = tup.At(i).Type()
		}
		return out
	}
	return []types.Type{tv.Type}
}

func isHTTPResponse(t types.Type) bool {
	return analysisutil.IsNamedType(t, "net/http", "Response")
}

// isOp reports whether call is a fallible operation: it returns an error
// (or an *http.Response), is not an error constructor or wrapper, and is
// not one of the accessors whose error is not an outcome (Close, Err).
func (in *interp) isOp(call *ast.CallExpr) bool {
	res := in.results(call)
	if len(res) == 0 {
		return false
	}
	fallible := analysisutil.IsErrorType(res[len(res)-1])
	for _, r := range res {
		if isHTTPResponse(r) {
			fallible = true
		}
	}
	if !fallible {
		return false
	}
	if tv, ok := in.info.Types[call.Fun]; ok && tv.IsType() {
		return false // conversion
	}
	if in.isPureWait(call) {
		return false // a wait (retry.Sleep returns the context's error)
	}
	for _, a := range call.Args {
		if tv, ok := in.info.Types[a]; ok && analysisutil.IsErrorType(tv.Type) && len(res) == 1 {
			// A wrapper: an operation only if it wraps one
			// (errors.Join(a(), b()), fmt.Errorf("...: %w", op())).
			for _, b := range call.Args {
				if c, ok := analysisutil.Unparen(b).(*ast.CallExpr); ok && in.isOp(c) {
					return true
				}
			}
			return false
		}
	}
	if fn := analysisutil.Callee(in.info, call); fn != nil {
		switch fn.Name() {
		case "Close", "Err", "Error", "Unwrap", "Wait":
			return false
		}
		switch analysisutil.PkgPath(fn) {
		case "errors", "fmt", "log", "log/slog":
			return false
		}
	}
	return true
}

var noReturnFuncs = map[string]map[string]bool{
	"os":      {"Exit": true},
	"log":     {"Fatal": true, "Fatalf": true, "Fatalln": true, "Panic": true, "Panicf": true, "Panicln": true},
	"runtime": {"Goexit": true},
}

func (in *interp) noReturn(call *ast.CallExpr) bool {
	if id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := in.info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			return true
		}
	}
	fn := analysisutil.Callee(in.info, call)
	if fn == nil {
		return false
	}
	if names := noReturnFuncs[analysisutil.PkgPath(fn)]; names != nil && names[fn.Name()] {
		return analysisutil.RecvTypeName(fn) == "" || analysisutil.RecvTypeName(fn) == "Logger"
	}
	if analysisutil.PkgPath(fn) == "testing" {
		switch fn.Name() {
		case "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
			return true
		}
	}
	return false
}

// mentionsTracked reports whether e refers to a variable holding an
// operation result on this path (or known to hold one in the function).
func (in *interp) mentionsTracked(e ast.Node, s *state) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if id, ok := n.(*ast.Ident); ok {
			if obj := in.info.Uses[id]; obj != nil {
				if _, ok := s.slot(obj); ok || in.opVars[obj] {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// noteProgress marks the path when stmt reads a partial result of an
// operation not known to have succeeded: `buf = append(buf, line...)`
// before or after `err == bufio.ErrBufferFull`.
func (in *interp) noteProgress(stmt ast.Stmt, s *state) *state {
	if s.progress {
		return s
	}
	var pending []types.Object
	for _, sl := range s.slots {
		if len(sl.partials) > 0 && sl.status() != stOK {
			pending = append(pending, sl.partials...)
		}
	}
	if len(pending) == 0 {
		return s
	}
	var nodes []ast.Node
	switch st := stmt.(type) {
	case *ast.ExprStmt:
		nodes = []ast.Node{st.X}
	case *ast.AssignStmt:
		for _, r := range st.Rhs {
			nodes = append(nodes, r)
		}
		for _, l := range st.Lhs {
			if _, isIdent := analysisutil.Unparen(l).(*ast.Ident); !isIdent {
				nodes = append(nodes, l)
			}
		}
	case *ast.IncDecStmt:
		nodes = []ast.Node{st.X}
	case *ast.IfStmt:
		nodes = []ast.Node{st.Cond}
	case *ast.SendStmt:
		nodes = []ast.Node{st.Value}
	case *ast.DeclStmt:
		nodes = []ast.Node{st}
	}
	used := false
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if used {
				return false
			}
			if id, ok := n.(*ast.Ident); ok {
				obj := in.info.Uses[id]
				for _, p := range pending {
					if obj == p {
						used = true
					}
				}
			}
			return true
		})
	}
	if !used {
		return s
	}
	c := s.clone()
	c.progress = true
	return c
}
