package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// loopVerdict is the model's judgement of one loop.
type loopVerdict struct {
	retry    bool
	attempts int64 // worst-case attempts; 0 when no constant bound was found
	// givesUp: some path leaves the loop because an operation failed whose
	// failure never sends the loop round again (a "should I retry?" call,
	// a budget): the loop is bounded by something other than a counter.
	givesUp bool
	// resume: the loop goes on after a success (a watch, a consumer) and,
	// after a failure, always waits before it goes round to call the
	// same operations again; no success path waits before going round
	// (see resume.go).
	resume bool
	// failDelays: for a resume loop whose successes wait too, the
	// values a failure gives the wait's duration (resumeSeen.ownFailDelays).
	failDelays []ast.Node
	// identified: every path that goes round after a failure identified
	// which failure it was first (state.identified).
	identified bool
	// clientErrors: every path that goes round after a failure knows a
	// response's status to be a client error (state.clientError).
	clientErrors bool
	// specific: every path that goes round after a failure knows it to
	// be a client error or compared it with an error value that names
	// one failure of no outage kind (state.outage).
	specific bool
	// notDone: every path that goes round after a failure knows the
	// server did not act on the request: a 4xx response (429 included:
	// refused before anything ran; state.refused), or a failure before it
	// was sent (state.unsent).
	notDone bool
	// cancelProof: every path that goes round after a failure knows it
	// to be one a cancelled attempt cannot have: a client-error
	// response, an error value of no outage kind, or an error of a
	// concrete type that wraps no other (state.ownType).
	cancelProof bool
}

// A loop is a hand-written retry when, judged over every path of its
// iterations:
//
//	(a) some path goes round again after an operation failed,
//	(b) no path goes round again after every examined operation succeeded
//	    (pagination, work queues, consumers and polling do), and
//	(c) some path leaves the loop after an operation succeeded.
//
// The attempt count is found by running the iterations with the concrete
// values of the counters that the loop compares with constants, taking
// every branch the values do not decide, until every path has left the
// loop; a loop that can go round for ever has no count.
func (in *interp) judgeLoop(fnBody *ast.BlockStmt, stmt ast.Stmt, label string, gotoList []ast.Stmt, gotoIdx int) loopVerdict {
	var (
		init, post ast.Stmt
		cond       ast.Expr
		body       []ast.Stmt
		rangeN     ast.Expr // range over an integer
		rangeKey   types.Object
		rangeStmt  *ast.RangeStmt
	)
	region := stmt
	switch st := stmt.(type) {
	case *ast.ForStmt:
		init, cond, post, body = st.Init, st.Cond, st.Post, st.Body.List
	case *ast.RangeStmt:
		tv, ok := in.info.Types[st.X]
		if !ok {
			return loopVerdict{}
		}
		b, ok := tv.Type.Underlying().(*types.Basic)
		switch {
		case ok && b.Info()&types.IsInteger != 0:
			rangeN = st.X
		case waits.IsSchedule(tv.Type):
			// for _, d := range backoffSchedule: a pass per delay of a
			// schedule, its count unknown here.
		default:
			return loopVerdict{} // ranging over items, channels, iterators
		}
		rangeStmt, body = st, st.Body.List
		if st.Key != nil {
			rangeKey = in.objOf(st.Key)
		}
	case *ast.LabeledStmt:
		// goto loop: the iteration runs from the label to the end of its list.
		label = st.Label.Name
	default:
		return loopVerdict{}
	}

	var partners map[types.Object][]types.Object
	var limits map[types.Object]int64
	in.track, partners, limits = trackedVars(in.info, region, gotoList, gotoIdx)
	prevNil := in.nilChans
	in.nilChans = nilChanVars(in.info, region)
	defer func() { in.nilChans = prevNil }()
	prevFlags := in.flags
	in.flags = flagEvents(in.info, region)
	defer func() { in.flags = prevFlags }()
	in.boundVars = map[types.Object]bool{}
	if cond != nil {
		ast.Inspect(cond, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				// i < w.retries: the bound is the field, not the
				// value that holds it (w.retryOn(err) tests no bound).
				if v, ok := in.info.Uses[x.Sel].(*types.Var); ok && v.IsField() {
					in.boundVars[v] = true
					return false
				}
			case *ast.Ident:
				if v, ok := in.info.Uses[x].(*types.Var); ok {
					in.boundVars[v] = true
				}
			}
			return true
		})
	}
	s0 := &state{}
	for obj, v := range in.initialValues(fnBody, region.Pos(), in.track) {
		s0.setVal(obj, v)
	}
	widen := in.untrackUnknown(s0, partners, region, gotoList, gotoIdx)
	var rangeLimit constant.Value
	if rangeStmt != nil {
		if rangeN != nil {
			if v, ok := in.eval(rangeN, s0); ok && v.Kind() == constant.Int {
				rangeLimit = v
			}
		}
		s0.setVal(rangeStmt, constant.MakeInt64(0))
	}
	frontier := []*state{s0}
	if init != nil {
		frontier = nil
		for _, o := range in.execStmt(init, s0, "") {
			frontier = append(frontier, o.s)
		}
	}

	var (
		failBack, okBack, okExit bool
		anyFailBack              bool // a failure of no identified kind went round
		anyOutageBack            bool // a failure other than a client error went round
		anyOutageSig             bool // a failure that may be an outage's went round
		anyDoneBack              bool // a failure the server may have acted on went round
		anyCancelBack            bool // a failure a cancelled attempt may have went round
		rs                       resumeSeen
		loopingOps               = map[*ast.CallExpr]bool{}
		exitFailOps              = map[*ast.CallExpr]bool{}
		maxAttempts              int
		seen                     = stateSet{}
		terminated               bool
	)
	exit := func(s *state, success bool) {
		n := s.attempts
		if s.opIter {
			n++
		}
		if n > maxAttempts {
			maxAttempts = n
		}
		if success && s.succeeded() {
			okExit = true
		}
		for _, sl := range s.slots {
			if sl.status() == stFailed && sl.op != nil {
				exitFailOps[sl.op] = true
			}
		}
	}
	topWait := in.waitsFirst(body)
	rs.first = in.firstOp(stmtNodes(body))
	rs.firstNext = in.nextItem(rs.first)
	rs.delayVars = in.delayVarsOf(stmtNodes(body))
	prevResume := in.resume
	in.resume = &rs
	defer func() { in.resume = prevResume }()
	// judgeBack judges an iteration that went round again; it returns
	// what the resume rule leaves pending (resumeSeen.see).
	judgeBack := func(t *state) (pendFail, pendOK bool) {
		pendFail, pendOK = rs.see(in.info, t, in.aims)
		switch {
		case !t.opIter && !t.stickyFail && !t.stickyOK:
			// No operation ran in this pass (`if !ready { continue }`
			// before the call): what its slots hold is an earlier pass's
			// outcome, already judged. The pass says nothing.
		case t.progress && !(in.aims && backsOff(t)):
			okBack = true // a read or write loop making progress
		case t.verdictNo:
			// "not yet" from an operation's own bool goes round: a poll
			// until done (see opVerdict)
			okBack = true
		case t.verdict && !t.delayed && !topWait:
			// "go on" from an operation's own bool, at once: an
			// iterator's "more", not a retry (see opVerdict). A body
			// that waits before its first operation waits before the
			// next attempt all the same.
		case t.failing() && !t.delayed && in.skipsItemOf(t, &rs, stmtNodes(body)):
			// the next item's fetch goes round at once after a later
			// step failed on this one: the item is skipped
			// (skipitems.go); a pass that waits first backs off
			okBack = true
		case t.failing():
			failBack = true
			if !t.identified {
				anyFailBack = true
			}
			if !t.refused() && !t.unsent {
				anyDoneBack = true
			}
			if !t.clientError() && !(t.identified && !t.outage) && !(t.identified && t.ownType) {
				anyCancelBack = true
			}
			if !t.clientError() {
				anyOutageBack = true
				if !t.identified || t.outage {
					anyOutageSig = true
				}
			}
			for _, sl := range t.slots {
				if st := sl.status(); (st == stFailed || st == stChecked) && sl.op != nil {
					loopingOps[sl.op] = true
				}
			}
		case t.empty && t.okOnly():
			// the operation answered with nothing and the pass goes
			// round: a retry if failures go round too, a poll until
			// the value is there if only this does
		case t.okOnly():
			okBack = true
		}
		return pendFail, pendOK
	}
	headCond := func(s *state) (ts, fs []*state) {
		switch {
		case rangeStmt != nil:
			i, ok := s.val(rangeStmt)
			if ok && rangeLimit != nil {
				if constant.Compare(i, token.LSS, rangeLimit) {
					if rangeKey != nil && in.track[rangeKey] {
						s = s.clone()
						s.setVal(rangeKey, i)
					}
					return []*state{s}, nil
				}
				return nil, []*state{s}
			}
			return []*state{s}, []*state{s}
		case cond != nil:
			ts, fs := in.cond(cond, s)
			if !s.boundFork {
				// Entering the body is no skipped wait: the pass that
				// runs after an undecided head test still follows the
				// last pass's failure (a wait the body skipped on an
				// undecided test of its own stays marked).
				ts = unfork(ts)
			}
			return ts, fs
		}
		return []*state{s}, nil
	}

	for layer := 0; layer < maxLayers && !in.aborted; layer++ {
		if len(frontier) == 0 {
			terminated = true
			break
		}
		var entering []*state
		for _, s := range frontier {
			ts, fs := headCond(s)
			for _, f := range fs {
				exit(f, true)
			}
			for _, t := range ts {
				var pendFail, pendOK bool
				if layer > 0 {
					pendFail, pendOK = judgeBack(t)
				}
				t = t.clone()
				t.pendFail, t.pendOK = pendFail, pendOK
				if t.opIter {
					t.attempts++
				}
				for v := range widen {
					if x, ok := t.val(v); ok && x.Kind() == constant.Int {
						if n, exact := constant.Int64Val(x); !exact || n > limits[v]+1 || n < -limits[v]-1 {
							t.setVal(v, nil) // past every constant: unknown from here
						}
					}
				}
				t.firstOK = false
				t.opIter, t.stickyFail, t.stickyOK, t.progress, t.verdict, t.verdictNo, t.empty = false, false, false, false, false, false, false
				entering = append(entering, t)
			}
		}
		entering = in.limit(entering)
		var outs []outcome
		if gotoList != nil {
			outs = in.execList(gotoList, gotoIdx, entering)
		} else {
			outs = in.execList(body, 0, entering)
		}
		var next []*state
		for _, o := range outs {
			switch {
			case gotoList != nil && o.kind == oGoto && o.label == label:
				next = append(next, o.s)
			case gotoList == nil && (o.kind == oNormal || o.kind == oContinue && (o.label == "" || o.label == label)):
				n := o.s
				if rangeStmt != nil {
					if i, ok := n.val(rangeStmt); ok {
						n = n.clone()
						n.setVal(rangeStmt, constant.BinaryOp(i, token.ADD, constant.MakeInt64(1)))
					}
				}
				if post != nil {
					for _, p := range in.execStmt(post, n, "") {
						next = append(next, p.s)
					}
				} else {
					next = append(next, n)
				}
			case o.kind == oDead:
				// panics and exits end the request; not a success
			case o.kind == oNormal && gotoList != nil:
				exit(o.s, true) // fell out of the goto region
			default:
				exit(o.s, true)
			}
		}
		next = in.limit(next)
		// Stop when the iterations repeat: the loop can go round for ever.
		fresh := false
		for _, n := range next {
			if seen.add(n) {
				fresh = true
			}
		}
		frontier = next
		if !fresh && len(next) > 0 {
			// Judge the back edges of this last layer before stopping.
			for _, s := range next {
				ts, _ := headCond(s)
				for _, t := range ts {
					judgeBack(t)
				}
			}
			break
		}
	}
	if in.aborted {
		return loopVerdict{}
	}
	v := loopVerdict{retry: failBack && !okBack && okExit, identified: failBack && !anyFailBack, clientErrors: failBack && !anyOutageBack, specific: failBack && !anyOutageSig, notDone: failBack && !anyDoneBack, cancelProof: failBack && !anyCancelBack}
	v.resume = rs.resume()
	if v.resume && rs.okWaits {
		v.failDelays = rs.ownFailDelays()
	}
	for op := range exitFailOps {
		if !loopingOps[op] {
			v.givesUp = true
		}
	}
	if terminated && maxAttempts > 0 {
		v.attempts = int64(maxAttempts)
	}
	return v
}
