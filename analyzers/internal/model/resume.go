package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// A resume loop is a loop that goes on after a success — a watch that
// re-reads after every event, a consumer that fetches the next batch —
// and, after a failure, waits and goes round to call the same operations
// again with the same input (a changing input makes it a search:
// iterates). The failure path is a retry of the watch or the fetch: its
// waits are retry delays, judged for jitter like a retry loop's. Judged
// by the loop interpreter (loopVerdict.resume) on every path:
//
//   - some path goes round after an operation failed, and every such path
//     waited since its last operation (a failure that goes round at once
//     is a consumer skipping a bad item, not a retry with a delay);
//   - some path goes round after every examined operation succeeded, and
//     none of them surely waited since its last operation (a success path
//     that waits is a poll, whose interval is no retry delay; one that
//     calls a handler held in a field, which may wait, is not known to
//     be one);
//   - no path goes round on partial results (a read loop).
//
// Resume loops are no retry sites: they have no bound by design, one pass
// is no attempt of a request the caller made, and nothing counts them in
// nesting. The model lists them apart, in Result.Resumes.
//
// A loop whose successes wait too, at the same wait, is a poll, unless a
// failure gives that wait's duration a value of its own (failDelays,
// resumeSeen.ownFailDelay): then the failure's wait is judged by that
// value, where the failure sets it (`wait = time.Second` in a renewal
// whose successes wait half the lease's TTL).
func (m *builder) addResume(stmt ast.Stmt, label string, gotoList []ast.Stmt, gotoIdx int, body *ast.BlockStmt, failDelays []ast.Node) {
	if m.accepts(loopNodes(stmt, gotoList, gotoIdx)) || m.onlyLocal(loopNodes(stmt, gotoList, gotoIdx)) {
		return
	}
	r := loopSite(stmt, label, gotoList, gotoIdx)
	m.findDelays(r, body)
	if len(failDelays) > 0 {
		m.failureDelays(r, body, failDelays)
	}
	if len(r.Delays) > 0 {
		m.result.Resumes = append(m.result.Resumes, r)
	}
}

// loopSite is the Retry of a loop that is no retry site but whose waits
// the checks judge (a resume loop, a fail-over): its kind, label and
// range, and one pass's syntax (the body, or for a goto loop the
// statements from its label).
func loopSite(stmt ast.Stmt, label string, gotoList []ast.Stmt, gotoIdx int) *Retry {
	r := &Retry{Kind: LoopRetry, Node: stmt, Label: label, Pos: stmt.Pos(), End: stmt.Pos() + token.Pos(len("for"))}
	switch st := stmt.(type) {
	case *ast.ForStmt:
		r.Ops = []ast.Node{st.Body}
	case *ast.RangeStmt:
		r.Ops = []ast.Node{st.Body}
	case *ast.LabeledStmt:
		r.Kind = GotoRetry
		r.End = st.Colon + 1
	}
	if gotoList != nil {
		r.Ops = nil
		for _, s := range gotoList[gotoIdx:] {
			r.Ops = append(r.Ops, s)
		}
	}
	return r
}

// accepts reports whether the loop accepts connections: it calls a
// method with no arguments that returns a connection of package net and
// an error (a listener's Accept). A server's accept loop that waits after
// a failure (too many open files) waits for its own resources to free
// up; it calls no dependency again, so its wait is no retry delay.
func (m *builder) accepts(nodes []ast.Node) bool {
	info := m.pass.TypesInfo
	return anyIn(nodes, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return false
		}
		if _, isSel := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); !isSel {
			return false
		}
		tup, ok := info.TypeOf(call).(*types.Tuple)
		if !ok || tup.Len() != 2 || !analysisutil.IsErrorType(tup.At(1).Type()) {
			return false
		}
		t := tup.At(0).Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := t.(*types.Named)
		if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "net" {
			return false
		}
		switch named.Obj().Name() {
		case "Conn", "TCPConn", "UnixConn":
			return true
		}
		return false
	})
}

// localPkgs are the standard packages whose operations reach no other
// process: files, readers and encoders.
var localPkgs = map[string]bool{
	"os": true, "io": true, "io/fs": true, "io/ioutil": true, "bufio": true, "path/filepath": true,
	"encoding/json": true, "encoding/csv": true, "encoding/gob": true, "encoding/xml": true, "strconv": true,
}

// onlyLocal reports whether the loop's first operation — the fetch, the
// watch, the read it is built around — is a function or method of
// localPkgs (a tail of a file that waits for more lines): a wait after
// its failures synchronizes no clients of a dependency.
func (m *builder) onlyLocal(nodes []ast.Node) bool {
	info := m.pass.TypesInfo
	first := m.newInterp().firstOp(nodes)
	if first == nil {
		return false
	}
	fn := analysisutil.Callee(info, first)
	return fn != nil && localPkgs[analysisutil.PkgPath(fn)]
}

// resumeSeen sums up the back edges of a loop for the resume rule. A
// path's outcome here is that of the operations of its own pass: a
// failure of an earlier pass overwritten since (state.stickyFail) does
// not make the next pass's success a failure.
type resumeSeen struct {
	fail, ok            bool // a failure, a success went round
	failAtOnce, okWaits bool // ...a failure without a wait, a success after one
	progress            bool // a path went round on partial results
	// session: a failure of a session (SessionFact) went round: the
	// session was the success, ended by that failure
	session bool
	// first is the loop's first operation in its body, the fetch or
	// watch it is built around (nil when not known).
	first *ast.CallExpr
	// firstNext: first hands out the next item of its receiver
	// (nextItem); only then does a path note that its success was
	// overwritten (state.firstOK), which would otherwise split the
	// paths of every loop for nothing.
	firstNext bool
	// items: the variables holding what first handed out, found when
	// first needed (skipitems.go).
	items map[types.Object]bool
	// delayVars: the local variables the loop's waits read their
	// duration from (`case <-time.After(wait)`); failDelays and
	// okDelays, the values (as written) that paths going round after a
	// failure and after a success gave them since their last operation
	// (state.delayVal).
	delayVars            map[types.Object]bool
	failDelays, okDelays map[string]ast.Node
}

// ownFailDelay reports whether a failure goes round with a wait of its
// own: both kinds of path wait at the same wait, but a failure gives its
// duration a value no success gives it (`wait = time.Second` where a
// renewal sets `wait = ttl / 2`). That failure's wait is a retry delay,
// not the poll's interval.
func (rs *resumeSeen) ownFailDelay() bool {
	return len(rs.ownFailDelays()) > 0
}

// ownFailDelays returns the values of ownFailDelay, in source order.
func (rs *resumeSeen) ownFailDelays() []ast.Node {
	if len(rs.okDelays) == 0 {
		return nil
	}
	var own []ast.Node
	for text, v := range rs.failDelays {
		if _, ok := rs.okDelays[text]; !ok {
			own = append(own, v)
		}
	}
	slices.SortFunc(own, func(a, b ast.Node) int { return int(a.Pos() - b.Pos()) })
	return own
}

// noteDelay records the value the path t, going round, gave a delay
// variable, into set.
func noteDelay(set *map[string]ast.Node, t *state) {
	if t.delayVal == nil {
		return
	}
	if *set == nil {
		*set = map[string]ast.Node{}
	}
	var text string
	switch v := t.delayVal.(type) {
	case ast.Expr:
		text = types.ExprString(v)
	case *ast.AssignStmt:
		text = types.ExprString(v.Lhs[0]) + " " + v.Tok.String() + " " + types.ExprString(v.Rhs[0])
	}
	if prev, ok := (*set)[text]; !ok || t.delayVal.Pos() < prev.Pos() {
		(*set)[text] = t.delayVal
	}
}

// delayVarsOf returns the local variables of type time.Duration read in
// the duration argument of a wait in nodes (outside function literals).
func (in *interp) delayVarsOf(nodes []ast.Node) map[types.Object]bool {
	var vars map[types.Object]bool
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				fn := analysisutil.Callee(in.info, x)
				if !in.isDelayCall(x) && !waits.TimerWait(fn) {
					return true
				}
				for _, a := range x.Args {
					localDurations(in.info, a, func(v *types.Var) bool {
						if vars == nil {
							vars = map[types.Object]bool{}
						}
						vars[v] = true
						return true
					})
				}
			}
			return true
		})
	}
	return vars
}

// firstOp returns the first operation in nodes, in source order (not in
// function literals); nil when there is none.
func (in *interp) firstOp(nodes []ast.Node) *ast.CallExpr {
	var first *ast.CallExpr
	anyIn(nodes, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && in.isOp(call) {
			first = call
		}
		return first != nil
	})
	return first
}

// skipsItem reports whether the path's first result is that of the
// loop's first operation, which succeeded (or the first success it
// overwrote in this pass is): a failure the path holds is
// a later step's, handling what the fetch got (`if err :=
// merge(kvs); err != nil { continue }`), and going round at once skips
// that item.
func (rs *resumeSeen) skipsItem(t *state) bool {
	if rs.first != nil && t.firstOK {
		return true // its result overwritten by the later step's
	}
	if rs.first == nil || len(t.slots) == 0 || t.slots[0].op != rs.first {
		return false
	}
	st := t.slots[0].status()
	return st == stOK || st == stMaybe
}

// see records the path t that goes round. A failure (a success) that
// has not surely waited since its last operation is left pending: the
// wait may come at the top of the next pass, before its first operation
// (`if wait > 0 { time.Sleep(wait) }` with wait set on the failure
// path, a poll's timer reset at the top), and settle judges it there.
//
// aims is interp.aims for the loop judged (see backsOff).
func (rs *resumeSeen) see(info *types.Info, t *state, aims bool) (pendFail, pendOK bool) {
	waited := t.delayed && !t.delayMay
	switch {
	case !t.opIter && !t.stickyFail && !t.stickyOK:
		// No operation ran in this pass (`if !found { sleep; continue }`
		// before the fetch): its slots hold an earlier pass's outcome,
		// already seen. The pass is neither a success nor a failure. A
		// wait in it is its own: it settles what the previous pass left
		// pending as no poll's interval, and a failure that went round
		// through it with no wait went round at once.
		if t.pendFail && !waited {
			rs.failAtOnce = true
		}
	case t.progress && !(aims && backsOff(t)):
		rs.progress = true
	case t.verdictNo:
		rs.ok = true // a poll until done (see opVerdict)
		noteDelay(&rs.okDelays, t)
		if t.delayed {
			rs.okWaits = true
		} else {
			pendOK = true
		}
	case t.verdict && !t.delayed:
		// an iterator's "more" (see opVerdict)
	case sessionEnded(t):
		// A session never ends well: a path on which it did is none,
		// and every other one goes round after its failure.
		if st := sessionStatus(t); st == stOK || st == stMaybe {
			return
		}
		// Going round at once after it is no failure spun on: the
		// session held its connection until it dropped, and redialing
		// then is a reconnect, paced by the session's life.
		rs.fail, rs.session = true, true
	case slotsFailing(t) && !waited && rs.skipsItem(t):
		// The fetch succeeded and a later step failed, going round
		// with no wait: the item is skipped, the pass a success.
		rs.ok = true
		pendOK = true
	case slotsFailing(t):
		rs.fail = true
		pendFail = !waited
		// The value it gave the wait at the top of the next pass is its
		// own (its wait is the next pass's), also when it already waited
		// in this pass (in an operation that waits: a reconnect that
		// dials host after host), unless that value is zero: then the
		// next pass does not wait, its pause was the one it took.
		if !waited || !zeroDelay(info, t.delayVal) {
			noteDelay(&rs.failDelays, t)
		}
	case slotsOK(t):
		rs.ok = true
		noteDelay(&rs.okDelays, t)
		if waited {
			rs.okWaits = true
		} else {
			pendOK = true
		}
	}
	return pendFail, pendOK
}

// settle judges a pending path as its next operation starts: a failure
// that went round and has not surely waited by now goes round at once
// (a hook that may wait paces nothing known); a success that surely
// waited is a poll's interval (one that only called a hook, which may
// do anything, is not known to be one).
func (rs *resumeSeen) settle(s *state) {
	waited := s.delayed && !s.delayMay
	if s.pendFail && !waited {
		rs.failAtOnce = true
	}
	if s.pendOK && waited {
		rs.okWaits = true
	}
}

func (rs *resumeSeen) resume() bool {
	return rs.fail && (rs.ok || rs.session) && !rs.failAtOnce && (!rs.okWaits || rs.ownFailDelay()) && !rs.progress
}

// sessionEnded reports whether the path holds the outcome of a session
// (SessionFact).
func sessionEnded(s *state) bool {
	return slices.ContainsFunc(s.slots, func(sl slot) bool { return sl.session })
}

// sessionStatus is the status of the path's session outcome, as its
// tests left it.
func sessionStatus(s *state) status {
	if i := slices.IndexFunc(s.slots, func(sl slot) bool { return sl.session }); i >= 0 {
		return s.slots[i].status()
	}
	return stUnknown
}

// slotsFailing reports whether an operation the path holds failed (or
// was judged by a predicate).
func slotsFailing(s *state) bool {
	for _, sl := range s.slots {
		if st := sl.status(); st == stFailed || st == stChecked {
			return true
		}
	}
	return false
}

// slotsOK reports whether an operation the path holds succeeded.
func slotsOK(s *state) bool {
	for _, sl := range s.slots {
		if st := sl.status(); st == stOK || st == stMaybe {
			return true
		}
	}
	return false
}

// failureDelays replaces the waits of the resume loop r that read a
// variable a failure gives a value of its own with a wait of each such
// value (an expression: `wait = time.Second`; an update in place,
// `wait *= 2`, keeps the wait's own reading of the variable).
func (m *builder) failureDelays(r *Retry, fnBody *ast.BlockStmt, vals []ast.Node) {
	var delays []*waits.Delay
	added := map[ast.Node]bool{} // one wait per value, however many waits read it
	for _, d := range r.Delays {
		if d.Own || !m.readsLocalDuration(d.Dur) {
			delays = append(delays, d)
			continue
		}
		replaced := false
		for _, v := range vals {
			e, ok := v.(ast.Expr)
			if !ok {
				continue
			}
			replaced = true
			if added[e] {
				continue
			}
			added[e] = true
			c := *d
			c.Dur = e
			c.Shape = m.waitLayer.Shape(e, fnBody)
			delays = append(delays, &c)
		}
		if !replaced {
			delays = append(delays, d)
		}
	}
	r.Delays = delays
}

// readsLocalDuration reports whether e reads a local variable of type
// time.Duration.
func (m *builder) readsLocalDuration(e ast.Expr) bool {
	found := false
	localDurations(m.pass.TypesInfo, e, func(*types.Var) bool {
		found = true
		return false
	})
	return found
}

// localDurations calls f with each local variable of type time.Duration
// that n reads, until f returns false.
func localDurations(info *types.Info, n ast.Node, f func(*types.Var) bool) {
	more := true
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && more {
			if v, ok := info.Uses[id].(*types.Var); ok && isLocal(v) && analysisutil.IsNamedType(v.Type(), "time", "Duration") {
				more = f(v)
			}
		}
		return more
	})
}

// backsOff reports whether the path t, going round after a failure, has
// surely waited first. In a watch (interp.aims), what it kept of the
// failed attempt is the position the next request asks from, no read
// making progress: a wait after that failure is a backoff. (A read
// loop that appends what a failed read gave and reads on after a pause
// still makes progress.)
func backsOff(t *state) bool {
	return t.failing() && t.delayed && !t.delayMay
}

// zeroDelay reports whether v, a value given to a delay variable (an
// assignment or its value), is a constant zero: `wait = 0`, `wait =
// noWait`.
func zeroDelay(info *types.Info, v ast.Node) bool {
	if as, ok := v.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
		v = as.Rhs[0]
	}
	e, ok := v.(ast.Expr)
	if !ok {
		return false
	}
	tv, ok := info.Types[analysisutil.Unparen(e)]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
}
