package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
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
	pkg         *types.Package           // the package analyzed
	closureWait func(*ast.CallExpr) bool // whether a call runs a local closure that waits
	info        *types.Info
	pkgVals     func(*types.Var) (constant.Value, bool) // package-level vars with constant values
	opVars      map[types.Object]bool                   // vars that hold an operation's error
	track       map[types.Object]bool                   // local ints and bools tracked concretely
	nilChans    map[types.Object]bool                   // the judged loop's channel variables that may hold nil (held.go)
	flags       map[*ast.CallExpr]bool                  // the judged loop's tests that consume a flag another goroutine raises (flags.go)
	writesOf    func(*ast.BlockStmt) *writeIndex        // a function body's writes, indexed once (tracked.go)
	steps       int
	budget      int // steps left for the function's loops
	fnSize      int // syntax nodes of the function: what each judged loop's scans of it cost
	labels      map[*ast.Stmt]map[string]int
	aborted     bool
	// aims: the loop judged aims each request at what the last one
	// answered (followsResponse), after a success as after a failure (a
	// watch): a failed pass that keeps what it answered and then waits
	// backs off (backsOff), it reads nothing on.
	aims bool
	// immediate is set when a later iteration's first operation runs with
	// no wait since the previous iteration's operations after a failure
	// of no identified kind; immediateIdentified when it runs so after a
	// failure the path identified (state.identified).
	immediate           bool
	immediateIdentified bool
	immediateOps        []*ast.CallExpr      // the operations that ran so, of no identified kind
	resume              *resumeSeen          // the judged loop's resume rule, settling pending paths
	delayFuncs          map[*types.Func]bool // this package's functions that wait
	pureWaits           map[*types.Func]bool // ...of which those that only wait
	// waitMethods are interface methods that may wait (an implementation
	// in this package waits).
	waitMethods map[*types.Func]bool
	imports     func(*types.Func) *waits.WaitFact
	importMay   func(*types.Func) bool // an interface method of another package that may wait (waits.MayWaitFact)
	// certainWaits leaves out the calls that only may wait (a function value given a duration): a
	// function's WaitFact needs a wait that happens, not one that might. waitMemo: waits' answers.
	certainWaits bool
	waitMemo     map[waitKey]bool
	// classifier gives the error parameter of an identifying function
	// (IdentifyFact).
	classifier func(*types.Func) (IdentifyFact, bool)
	// statefulPred: a call of a function value that keeps its own
	// history (statefulpreds.go).
	statefulPred func(*ast.CallExpr) bool
	statusTest   func(*types.Func) *StatusTestFact // StatusTestFact of a function
	// statusFields are the fields that hold a response's status
	// (StatusFieldsFact), by statusFieldKey.
	statusFields map[string]bool
	// sentinelVars are the local variables that hold an error made once
	// in their function (findLocalSentinels): sentinels of their own.
	sentinelVars map[*types.Var]bool
	// statusVars are the local variables that only hold a response's
	// status (findStatusVars), to that response's variable.
	statusVars map[types.Object]types.Object
	// outage reports whether a package-level error variable is one an
	// outage gives every client (OutageFact, or a catalog Outage row).
	outage func(types.Object) bool
	// sessions reports whether a function runs until it fails
	// (SessionFact): its error is never nil.
	sessions func(*types.Func) bool
	// sessionStmt returns the call by which a statement runs a session
	// to its end (runsessions.go).
	sessionStmt func(ast.Stmt) (*ast.CallExpr, bool)
	runsSession func(*types.Func) bool // RunsSessionFact of a function
	// hookGated reports whether a bool method answers true only where a
	// hook of its receiver says so (hookgated.go).
	hookGated func(*types.Func) bool
	// asks reports whether a call only asks whether a dependency
	// answers (a catalog Probe row, ProbeFact: probes.go).
	asks      func(*ast.CallExpr) bool
	boundVars map[types.Object]bool          // variables of the judged loop's condition
	yields    map[types.Object]bool          // yield parameters of iterator functions
	asyncOps  map[types.Object]*ast.CallExpr // channels carrying one operation's outcome (async.go)
	asyncBody *ast.BlockStmt                 // the function body they are found in, on first need
	pass      *passIndex                     // the statement lists of the loop being judged (verdicts.go)
}

// startOp notes that the operation call is about to run on path s.
func (in *interp) startOp(s *state, call *ast.CallExpr) {
	if s.pendFail || s.pendOK {
		if in.resume != nil {
			in.resume.settle(s)
		}
		s.pendFail, s.pendOK = false, false
	}
	if !s.opIter {
		if s.attempts > 0 && !s.delayed && !s.boundFork {
			if s.identified {
				in.immediateIdentified = true
			} else {
				in.immediate = true
				in.immediateOps = append(in.immediateOps, call)
			}
		}
		// What the last pass identified is judged; this pass starts
		// afresh (a later operation of the same pass, such as a reset
		// before the resend, keeps it).
		s.identified, s.outage, s.unsent, s.ownType = false, false, false, false
	}
	s.opIter = true
	s.delayed, s.delayMay = false, false
	s.boundFork = false
	s.delayVal = nil
}

// noteWait marks the path as having waited when stmt waits: surely (a
// sleep, a timer), or only maybe (a hook held in a field, a function
// value given a duration: state.delayMay).
func (in *interp) noteWait(stmt ast.Node, s *state) *state {
	if s.delayed && !s.delayMay || !in.waits(stmt) {
		return s
	}
	sure := in.certainWaits
	if !sure {
		in.certainWaits = true
		sure = in.waits(stmt)
		in.certainWaits = false
	}
	if s.delayed && !sure {
		return s
	}
	s = s.clone()
	s.delayed, s.delayMay = true, !sure
	return s
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
	switch in.receiveOn(stmt, s) {
	case recvNever:
		return nil // blocks for ever
	case recvHeld:
		s = heldEnded(s)
	default:
		s = in.noteProgress(stmt, s)
		s = in.noteWait(stmt, s)
	}
	s = in.noteNilChans(stmt, s)
	switch st := stmt.(type) {
	case *ast.ExprStmt:
		if call, ok := analysisutil.Unparen(st.X).(*ast.CallExpr); ok && in.noReturn(call) {
			return []outcome{{kind: oDead, s: s}}
		}
		return []outcome{{s: in.sessionRan(st, s)}}
	case *ast.AssignStmt:
		return normal([]*state{in.sessionRan(st, in.assign(st, s))})
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
			if !s0.boundFork && endsInReturn(st.Body) {
				// The code's own test of the bound returns on one side
				// (`if attempt >= max { return err }`): that side is the
				// last attempt, the other has attempts left.
				fs = unfork(fs)
			}
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
			switch in.receiveOn(cc.Comm, s1) {
			case recvNever:
				continue // never ready: the select never takes this case
			case recvHeld:
				s1 = heldEnded(s1)
			default:
				if cc.Comm != nil {
					s1 = in.noteProgress(cc.Comm, s1)
					s1 = in.noteWait(cc.Comm, s1)
				}
			}
			if as, ok := cc.Comm.(*ast.AssignStmt); ok {
				if s2, ok := in.bindRecv(as.Lhs, as.Rhs, s1); ok {
					s1 = s2 // case err := <-errc: an attempt's outcome
				} else {
					s1 = in.forget(as.Lhs, s1)
				}
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
