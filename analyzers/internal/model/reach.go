package model

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

func (m *builder) add(r *Retry) {
	if m.retryAt[r.Node] != nil {
		return
	}
	m.retryAt[r.Node] = r
	m.result.Retries = append(m.result.Retries, r)
}

// dropCycles removes from each retry's Inner the retries that reach it
// back (an attempt of A reaches B's retry, and one of B reaches A's):
// retries that reach each other are a recursion, which something the
// model cannot see (the data a call is given) must break on one side, or
// it never ends. Which side nests is unknown, so neither is counted. The
// Amp of a retry that loses an inner retry is computed again.
func (m *builder) dropCycles() {
	at := map[token.Pos]*Retry{}
	for _, r := range m.result.Retries {
		at[r.Pos] = r
	}
	target := func(x *Reach) *Retry {
		if x.Retry != nil {
			return x.Retry
		}
		if x.Callee == nil {
			return nil
		}
		if p, ok := m.result.SitePos[x.Callee.Origin()]; ok {
			return at[p]
		}
		return nil
	}
	back := map[*Reach]bool{}
	for _, r := range m.result.Retries {
		for _, x := range r.Inner {
			if b := target(x); b != nil && b != r && slices.ContainsFunc(b.Inner, func(y *Reach) bool { return target(y) == r }) {
				back[x] = true
			}
		}
	}
	if len(back) == 0 {
		return
	}
	for _, r := range m.result.Retries {
		n := len(r.Inner)
		r.Inner = slices.DeleteFunc(r.Inner, func(x *Reach) bool { return back[x] })
		if len(r.Inner) == n {
			continue
		}
		per := int64(1)
		if len(r.Inner) > 0 {
			per = sumReaches(r.Inner)
		}
		r.Amp = mul(r.Attempts, per)
	}
}

// amp computes r.Inner and r.Amp.
func (m *builder) amp(r *Retry) int64 {
	switch r.ampState {
	case 1:
		return 0 // a cycle: unknown
	case 2:
		return r.Amp
	}
	r.ampState = 1
	var inner []*Reach
	for _, op := range r.Ops {
		inner = append(inner, m.reachesIn(op, r)...)
	}
	for _, fn := range r.OpFuncs {
		if f := m.summary(fn); f != nil {
			inner = append(inner, &Reach{Pos: r.Pos, Callee: fn, Fact: f})
		}
	}
	// An attempt that reaches this very retry again (Open → onEvent →
	// reconnect, the loop that called Open) re-enters it: a recursion,
	// not a retry nested in another.
	inner = slices.DeleteFunc(inner, func(x *Reach) bool {
		if x.Callee == nil {
			return false
		}
		p, ok := m.result.SitePos[x.Callee.Origin()]
		return ok && p == r.Pos
	})
	// What a hand-written loop reaches in a return statement runs once,
	// as the loop is left (`if err == nil { return fetch(tok) }`): after
	// the retry, not in each of its attempts. So does what it reaches in
	// a block that ends in a return (`if errors.Is(err, errMoved) {
	// s.refresh(); return err }`).
	if r.Kind == LoopRetry || r.Kind == GotoRetry {
		var leaving [][2]token.Pos
		for _, op := range r.Ops {
			ast.Inspect(op, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.ReturnStmt:
					if len(x.Results) > 0 {
						leaving = append(leaving, [2]token.Pos{x.Results[0].Pos(), x.Results[len(x.Results)-1].End()})
					}
				case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
					list := analysisutil.StmtList(n)
					if len(list) > 1 && n != op && leavesEveryPath(list) {
						leaving = append(leaving, [2]token.Pos{list[0].Pos(), list[len(list)-1].End()})
					}
				}
				return true
			})
		}
		inner = slices.DeleteFunc(inner, func(x *Reach) bool {
			return slices.ContainsFunc(leaving, func(span [2]token.Pos) bool { return span[0] <= x.Pos && x.Pos < span[1] })
		})
	}
	r.Inner = inner
	per := int64(1)
	if len(inner) > 0 {
		per = sumReaches(inner)
	}
	r.Amp = mul(r.Attempts, per)
	r.ampState = 2
	return r.Amp
}

// leavesEveryPath reports whether list ends in a return and holds no
// continue or goto (outside closures): every path that enters it leaves
// the function.
func leavesEveryPath(list []ast.Stmt) bool {
	if _, ok := list[len(list)-1].(*ast.ReturnStmt); !ok {
		return false
	}
	for _, st := range list {
		jumps := false
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				jumps = jumps || x.Tok == token.CONTINUE || x.Tok == token.GOTO
			}
			return !jumps
		})
		if jumps {
			return false
		}
	}
	return true
}

func sumReaches(rs []*Reach) int64 {
	var total int64
	for _, x := range rs {
		a := x.Amp()
		if a == 0 {
			return 0
		}
		total = add(total, a)
	}
	return total
}

const saturate = math.MaxInt64 / 4

// add adds two known (positive) counts, saturating.
func add(a, b int64) int64 {
	if a > saturate-b {
		return saturate
	}
	return a + b
}

func mul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > saturate/b {
		return saturate
	}
	return a * b
}

// reachesIn lists the retrying things reached from root at the top level:
// retry sites (not looking inside them) and calls of retrying functions.
// Closures inside root count unless they escape (returned or stored).
func (m *builder) reachesIn(root ast.Node, self *Retry) []*Reach {
	info := m.pass.TypesInfo
	var out []*Reach
	addFunc := func(pos token.Pos, fn *types.Func) {
		if f := m.summary(fn); f != nil {
			out = append(out, &Reach{Pos: pos, Callee: fn, Fact: f})
		}
	}
	// addCall is addFunc for a call, whose constant arguments may give
	// the attempts of a retry bounded by a parameter.
	addCall := func(call *ast.CallExpr, fn *types.Func) {
		f := m.summary(fn)
		if f == nil {
			return
		}
		if f.AttemptsParam > 0 && f.AttemptsParam <= len(call.Args) && f.PerAttempt > 0 {
			if tv := info.Types[call.Args[f.AttemptsParam-1]]; tv.Value != nil {
				if n, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok {
					attempts := max(int64(f.AttemptsSign)*n+f.AttemptsOffset, 1)
					if attempts == 1 && f.Calls == 0 && f.PerAttempt == 1 {
						return // one attempt that reaches nothing retrying: no retry here
					}
					g := *f
					g.Calls = mul(attempts, f.PerAttempt)
					g.Site = strings.Replace(g.Site, "("+AttemptsText(0)+")", "("+AttemptsText(attempts)+")", 1)
					f = &g
				}
			}
		}
		out = append(out, &Reach{Pos: call.Pos(), Callee: fn, Fact: f})
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if n == nil {
			return false
		}
		if r := m.retryAt[n]; r != nil && r != self && !r.ClientErrors {
			m.amp(r)
			out = append(out, &Reach{Pos: r.Pos, Retry: r})
			return false
		}
		if r := m.covered[n]; r != nil {
			if r != self {
				return false // part of a goto loop, reached through its label
			}
			if call, ok := n.(*ast.CallExpr); ok && r.Kind == RecursiveRetry {
				// Another self-call of a recursive retry: its next attempt.
				for _, a := range call.Args {
					ast.Inspect(a, visit)
				}
				return false
			}
		}
		if call := m.discardedRetry(n); call != nil {
			// _ = backoff.Retry(...): its failure cannot fail the
			// attempt, so the retry around does not go round on it.
			return false
		}
		switch x := n.(type) {
		case *ast.GoStmt:
			// A goroutine started here runs beside the attempt, not in
			// it (often one worker shared by every caller): what it
			// reaches is no part of the attempt. Its arguments are
			// evaluated here.
			for _, e := range analysisutil.GoEvaluated(x) {
				ast.Inspect(e, visit)
			}
			return false
		case *ast.FuncLit:
			if m.uncounted[x] {
				return false
			}
		case *ast.CallExpr:
			if self != nil && self.Kind == RecursiveRetry && ast.Node(x) == self.Node {
				// A recursive retry's self-call is its next attempt, not
				// a retry it reaches.
				for _, a := range x.Args {
					ast.Inspect(a, visit)
				}
				return false
			}
			if fn := analysisutil.Callee(info, x); fn != nil {
				if impl := m.fieldImpl(x, fn); impl != nil {
					fn = impl // s.client.Open: the one type the field holds
				}
				addCall(x, fn)
			} else if id, ok := analysisutil.Unparen(x.Fun).(*ast.Ident); ok {
				// A call of a local function variable: op := func() {...}; op().
				if v, ok := info.Uses[id].(*types.Var); ok && isLocal(v) && !m.walkingLits[v] {
					m.walkingLits[v] = true
					for _, a := range m.vals.Assigns[v] {
						lit, ok := analysisutil.Unparen(a.Value).(*ast.FuncLit)
						if !ok || a.Value == nil {
							continue
						}
						if lit.Pos() >= root.Pos() && lit.End() <= root.End() && !m.uncounted[lit] {
							continue // written in this attempt: counted where it is
						}
						out = append(out, m.reachesIn(lit.Body, self)...)
					}
					delete(m.walkingLits, v)
				}
			}
			switch fun := analysisutil.Unparen(x.Fun).(type) {
			case *ast.Ident:
			case *ast.SelectorExpr:
				if _, isFunc := info.Uses[fun.Sel].(*types.Func); isFunc {
					ast.Inspect(fun.X, visit)
				} else {
					ast.Inspect(fun, visit)
				}
			case *ast.IndexExpr, *ast.IndexListExpr:
			default:
				ast.Inspect(fun, visit)
			}
			for _, a := range x.Args {
				ast.Inspect(a, visit)
			}
			return false
		case *ast.SelectorExpr:
			if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
				// A method value or qualified function used as a value.
				addFunc(x.Pos(), fn.Origin())
				ast.Inspect(x.X, visit)
				return false
			}
		case *ast.Ident:
			if fn, ok := info.Uses[x].(*types.Func); ok {
				addFunc(x.Pos(), fn.Origin())
			}
		}
		return true
	}
	ast.Inspect(root, visit)
	return out
}

// stmtCall returns the call statement n makes as a whole: an expression
// statement's, or the one value of an assignment; dropped reports that no
// variable keeps a result (a statement, or an assignment to blanks only).
// nil for any other statement.
func stmtCall(n ast.Node) (call *ast.CallExpr, dropped bool) {
	var e ast.Expr
	dropped = true
	switch st := n.(type) {
	case *ast.ExprStmt:
		e = st.X
	case *ast.AssignStmt:
		if len(st.Rhs) != 1 || st.Tok != token.ASSIGN && st.Tok != token.DEFINE {
			return nil, false
		}
		for _, l := range st.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				dropped = false
			}
		}
		e = st.Rhs[0]
	default:
		return nil, false
	}
	call, _ = analysisutil.Unparen(e).(*ast.CallExpr)
	return call, call != nil && dropped
}

// discardedRetry returns the call of statement n when n drops every
// result of a retry (a catalogued retry call, or a call of a function
// that retries) one of which is an error: written as a statement, or
// assigned to blanks only. What that retry ends with cannot fail the
// code around it: a retry around that code does not go round on it, and
// it nests in nothing (a changefeed's reader connecting to each member
// it announces, the error left to the log). nil otherwise.
func (m *builder) discardedRetry(n ast.Node) *ast.CallExpr {
	call, dropped := stmtCall(n)
	if call == nil || !dropped {
		return nil
	}
	hasErr := slices.ContainsFunc(waits.Results(m.pass.TypesInfo, call), analysisutil.IsErrorType)
	if !hasErr {
		return nil
	}
	if r := m.retryAt[call]; r != nil {
		return call
	}
	if fn := analysisutil.Callee(m.pass.TypesInfo, call); fn != nil && m.summary(fn) != nil {
		return call
	}
	return nil
}

// summary returns the RetryFact of fn: computed for this package's
// functions, imported for others. nil if fn does not retry.
func (m *builder) summary(fn *types.Func) *RetryFact {
	return summarize(m, m.summaries, fn, func(fn *types.Func, d *ast.FuncDecl) *RetryFact {
		reaches := m.reachesIn(d.Body, nil)
		var f *RetryFact
		if len(reaches) > 0 {
			f = &RetryFact{Calls: sumReaches(reaches)}
			w := worst(reaches)
			if rec := countedRecursion(reaches); rec != nil {
				// The body is the recursion's first attempt: what else
				// it reaches is that attempt's inner retries.
				reaches, w = []*Reach{rec}, rec
				f.Calls = sumReaches(reaches)
			}
			if len(reaches) == 1 && w.Retry != nil && w.Retry.CountParam >= 0 && w.Retry.Kind == RecursiveRetry {
				f.AttemptsParam = w.Retry.CountParam + 1
				f.AttemptsSign, f.AttemptsOffset = w.Retry.CountSign, w.Retry.CountOffset
				f.PerAttempt = 1
				if len(w.Retry.Inner) > 0 {
					f.PerAttempt = sumReaches(w.Retry.Inner)
				}
			}
			if w.Retry != nil {
				f.Depth = retryDepth(w.Retry)
				f.Site = m.site(w.Retry)
				f.Disable = w.Retry.Disable()
				m.result.SitePos[fn] = w.Retry.Pos
			} else {
				if p, ok := m.result.SitePos[w.Callee.Origin()]; ok {
					m.result.SitePos[fn] = p
				}
				f.Depth = w.Fact.Depth
				f.Via = append([]string{analysisutil.FuncName(w.Callee, m.pass.Pkg)}, w.Fact.Via...)
				f.Site = w.Fact.Site
				f.Disable = w.Fact.Disable
			}
			// Names in Via are read from other packages: qualify them.
			if len(f.Via) > 0 {
				f.Via[0] = analysisutil.FuncName(w.Callee, nil)
			}
		}
		return f
	})
}

// countedRecursion returns, among a function's reaches, its recursive
// retry bounded by a parameter when every other reach is one of that
// retry's inner retries (reached by its first attempt, the body), or
// nil.
func countedRecursion(reaches []*Reach) *Reach {
	var rec *Reach
	for _, r := range reaches {
		if r.Retry != nil && r.Retry.Kind == RecursiveRetry && r.Retry.CountParam >= 0 {
			if rec != nil {
				return nil
			}
			rec = r
		}
	}
	if rec == nil || len(reaches) == 1 {
		return nil
	}
	for _, r := range reaches {
		if r == rec {
			continue
		}
		inner := false
		for _, in := range rec.Retry.Inner {
			inner = inner || in.Pos == r.Pos
		}
		if !inner {
			return nil
		}
	}
	return rec
}

// worst returns the reach with the most downstream calls (unknown counts
// as the most).
func worst(rs []*Reach) *Reach {
	var w *Reach
	for _, r := range rs {
		if w == nil {
			w = r
			continue
		}
		a, b := r.Amp(), w.Amp()
		if b != 0 && (a == 0 || a > b) {
			w = r
		}
	}
	return w
}

func retryDepth(r *Retry) int {
	return depthOf(r, map[*Retry]bool{})
}

// depthOf is retryDepth; a retry already on the path (a cycle) adds
// nothing.
func depthOf(r *Retry, onPath map[*Retry]bool) int {
	if onPath[r] {
		return 0
	}
	onPath[r] = true
	defer delete(onPath, r)
	d := 0
	for _, in := range r.Inner {
		var x int
		if in.Retry != nil {
			x = depthOf(in.Retry, onPath)
		} else {
			x = in.Fact.Depth
		}
		d = max(d, x)
	}
	return d + 1
}

// AttemptsText words a number of attempts: "3 attempts", "an unknown
// number of attempts".
func AttemptsText(n int64) string {
	switch n {
	case 0:
		return "an unknown number of attempts"
	case 1:
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

// site describes a retry with its position, for facts.
func (m *builder) site(r *Retry) string {
	return fmt.Sprintf("%s (%s) at %s", r.Describe(), AttemptsText(r.Attempts), analysisutil.ShortPos(m.pass.Fset, r.Pos))
}

// Site describes r with its position, as facts do.
func Site(fset *token.FileSet, r *Retry) string {
	return fmt.Sprintf("%s (%s) at %s", r.Describe(), AttemptsText(r.Attempts), analysisutil.ShortPos(fset, r.Pos))
}

// RetryDepth is the number of retries nested in r, r included.
func RetryDepth(r *Retry) int { return retryDepth(r) }

// waitsFirst reports whether a loop body surely waits before its first
// operation: a statement of the body itself (not in a branch) that waits,
// with no operation in the statements before it (`for err != nil {
// time.Sleep(d); again, err = op() }`).
func (in *interp) waitsFirst(body []ast.Stmt) bool {
	for _, st := range body {
		if analysisutil.AnyIn([]ast.Node{st}, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			return ok && in.isOp(c) && !in.isDelayCall(c)
		}) {
			return false
		}
		switch st.(type) {
		case *ast.ExprStmt, *ast.AssignStmt:
			if in.waits(st) {
				return true
			}
		}
	}
	return false
}
