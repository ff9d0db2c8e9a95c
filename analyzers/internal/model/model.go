// Package model is resilint's shared resilience model: one analysis pass
// that recognizes, once, the retries of a package (hand-written loops and
// library calls from the catalog), how many attempts each makes, and what
// each attempt reaches, and that exports a RetryFact for every function
// that retries so callers in other packages know it too.
//
// By itself it reports nothing; the reporting analyzers (retrynesting, ...)
// list it in Requires and word diagnostics from its Result.
package model

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// Analyzer is the model pass.
var Analyzer = &analysis.Analyzer{
	Name:       "resilmodel",
	Doc:        "recognize retries, their attempt bounds and what they reach (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*RetryFact)(nil), (*ConstFact)(nil), (*BreakerFact)(nil), (*SendFact)(nil), (*RequestFact)(nil), (*TimeoutFact)(nil), (*RetryHelperFact)(nil), (*WaitFact)(nil), (*RandomFact)(nil), (*CtxCheckFact)(nil)},
}

// RetryKind says how a retry is written.
type RetryKind int

const (
	LoopRetry    RetryKind = iota + 1 // a hand-written for or range loop
	GotoRetry                         // a hand-written loop made of a label and goto
	LibraryRetry                      // a retry library call running an operation
	ClientRetry                       // a client send that retries by itself
)

// Retry is one retry site of the package.
type Retry struct {
	Kind     RetryKind
	Node     ast.Node     // *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt or *ast.CallExpr
	Pos, End token.Pos    // the range to report: the loop keyword, the label, or the called function
	Row      *catalog.Row // the catalog row, for library and client retries
	// Attempts is the worst-case number of attempts this retry makes by
	// itself; 0 when it has no constant bound.
	Attempts int64
	// Ops are the syntax of one attempt: the loop body, the closure given
	// to the library. OpFuncs are operations given as named functions or
	// method values.
	Ops     []ast.Node
	OpFuncs []*types.Func
	// Inner lists what one attempt reaches that retries again, at the top
	// level (a reach's own nesting is inside it).
	Inner []*Reach
	// Amp is the worst-case number of downstream calls one execution of
	// this retry makes: Attempts × the calls one attempt makes (at least
	// one). 0 when unknown.
	Amp int64
	// Through, for a net/http send, is the StandardClient call that made
	// the retrying client.
	Through string

	// For hand-written loops: the waits between attempts with a
	// duration, whether some attempt follows the previous one with no
	// wait at all, and whether the loop checks a context or the clock
	// (a bound by time).
	Delays      []*Delay
	Immediate   bool
	TimeBounded bool
	// CountBounded: the loop compares a counter it advances with a limit,
	// even one that is not a constant (a configured number of attempts).
	CountBounded bool

	// Breakers lists the circuit breaker calls one attempt reaches: the
	// retry runs outside those breakers. StopsOnOpen says the retry stops
	// at once on a breaker's open error; RetriesOpen that it explicitly
	// retries it. Order is set for a failsafe-go executor that lists its
	// retry policy before its circuit breaker; BreakerFix is the fix for a
	// library retry whose operation is only a breaker call.
	Breakers    []*BreakerReach
	StopsOnOpen bool
	RetriesOpen bool
	Order       *Order
	BreakerFix  *Fix

	// Sends lists the HTTP requests one attempt sends (directly or in a
	// called function); a retrying client's send is its own.
	Sends []*Send

	ampState uint8 // 0 new, 1 computing, 2 done
}

// Describe names the retry for messages: "retry loop", "backoff.Retry".
func (r *Retry) Describe() string {
	switch r.Kind {
	case LoopRetry:
		return "retry loop"
	case GotoRetry:
		return "goto retry loop"
	}
	if r.Through != "" {
		return r.Row.Lib + " of a retryablehttp StandardClient"
	}
	return r.Row.Lib
}

// Disable says how to switch the retry off when it is a library's.
func (r *Retry) Disable() string {
	if r.Row != nil {
		return r.Row.Disable
	}
	return ""
}

// Reach is something one attempt of a retry (or a function body) reaches
// that retries: an inner retry written in this package, or a call of a
// function that retries.
type Reach struct {
	Pos    token.Pos   // the inner retry, or the call
	Retry  *Retry      // set for an inner retry site
	Callee *types.Func // set for a call of a retrying function
	Fact   *RetryFact  // the callee's summary
}

// Amp is the worst-case downstream calls the reach makes (0: unknown).
func (r *Reach) Amp() int64 {
	if r.Retry != nil {
		return r.Retry.Amp
	}
	return r.Fact.Calls
}

// Result is the model of one package.
type Result struct {
	// Retries lists every retry site of the package in source order.
	Retries []*Retry
	// Funcs holds the summary of each function of the package that
	// retries (the fact it exports).
	Funcs map[*types.Func]*RetryFact
	// Configs lists what the package's library retries are configured to
	// do wrong: no jitter, no bound, no delay.
	Configs []*Config
	// Timeouts holds the package's deadline findings.
	// SitePos gives, for a function of this package that retries, the
	// position of the retry its fact describes when that retry is in this
	// package too (for related locations).
	SitePos  map[*types.Func]token.Pos
	Timeouts *Timeouts
}

type builder struct {
	pass        *analysis.Pass
	vals        *values
	pkgConsts   map[*types.Var]int64
	retryAt     map[ast.Node]*Retry
	covered     map[ast.Node]*Retry // statements of a goto loop after its label
	uncounted   map[*ast.FuncLit]bool
	summaries   *summaries[RetryFact]
	delayFuncs  map[*types.Func]bool
	pureWaits   map[*types.Func]bool
	randomFuncs map[*types.Func]bool
	ctxChecks   map[*types.Func]int // this package's functions that check their context parameter, by its index
	breakerAt   map[*ast.CallExpr]*BreakerSite
	bsummaries  *summaries[BreakerFact]
	headers     map[types.Object][]HeaderWrite
	walkingLits map[*types.Var]bool
	helpers     map[*types.Func]*RetryHelperFact
	tsummaries  *summaries[TimeoutFact]
	ssummaries  *summaries[SendFact]
	result      *Result
}

func run(pass *analysis.Pass) (any, error) {
	if isStd(pass.Pkg.Path()) {
		// The standard library's own retries (EINTR loops, the DNS
		// resolver, HTTP/2 connection reuse) are not the caller's
		// retries: treat it as opaque.
		return &Result{Funcs: map[*types.Func]*RetryFact{}, SitePos: map[*types.Func]token.Pos{}}, nil
	}
	return build(pass), nil
}

// build computes the model of the package of pass.
func build(pass *analysis.Pass) *Result {
	m := &builder{
		pass:        pass,
		vals:        newValues(pass.TypesInfo, pass.Files),
		retryAt:     map[ast.Node]*Retry{},
		covered:     map[ast.Node]*Retry{},
		uncounted:   map[*ast.FuncLit]bool{},
		summaries:   newSummaries[RetryFact](),
		breakerAt:   map[*ast.CallExpr]*BreakerSite{},
		bsummaries:  newSummaries[BreakerFact](),
		ssummaries:  newSummaries[SendFact](),
		tsummaries:  newSummaries[TimeoutFact](),
		walkingLits: map[*types.Var]bool{},
		helpers:     map[*types.Func]*RetryHelperFact{},
		result:      &Result{Funcs: map[*types.Func]*RetryFact{}, SitePos: map[*types.Func]token.Pos{}},
	}
	m.findConsts()
	m.delayFuncs = m.findDelayFuncs()
	m.findRandomFuncs()
	m.findCtxChecks()
	m.headers = m.headerIndex()
	for _, f := range pass.Files {
		m.findRetries(f)
	}
	m.findHelpers()
	for _, f := range pass.Files {
		m.findCalls(f)
	}
	sort.Slice(m.result.Retries, func(i, j int) bool { return m.result.Retries[i].Pos < m.result.Retries[j].Pos })
	for _, r := range m.result.Retries {
		m.amp(r)
	}
	for _, r := range m.result.Retries {
		for _, op := range r.Ops {
			r.Breakers = append(r.Breakers, m.breakersIn(op, r.Node)...)
		}
		for _, fn := range r.OpFuncs {
			if f := m.breakerSummary(fn); f != nil {
				r.Breakers = append(r.Breakers, &BreakerReach{Pos: r.Pos, Callee: fn, Fact: f})
			}
		}
		if call, ok := r.Node.(*ast.CallExpr); ok && r.Row != nil && r.Row.Recv == "Executor" {
			m.failsafeOrder(r, call)
		}
		r.Breakers = dedupeBreakers(r.Breakers)
		m.findSends(r)
		if len(r.Breakers) > 0 || r.Order != nil {
			m.openHandling(r)
			r.BreakerFix = m.swapFix(r)
		}
	}
	fns := make([]*types.Func, 0, len(m.vals.decls))
	for fn := range m.vals.decls {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	for _, fn := range fns {
		if f := m.summary(fn); f != nil {
			m.result.Funcs[fn] = f
			pass.ExportObjectFact(fn, f)
		}
		if f := m.breakerSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.sendSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.requestFact(fn, m.vals.decls[fn]); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.timeoutSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
	}
	m.result.Timeouts = m.findTimeouts()
	return m.result
}

// findConsts records package-level integer variables with a constant
// initializer that the package never writes again.
func (m *builder) findConsts() {
	info := m.pass.TypesInfo
	addrTaken := map[types.Object]bool{}
	for _, f := range m.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if obj := m.vals.objOf(n.X); obj != nil {
						addrTaken[obj] = true
					}
				}
			case *ast.IncDecStmt:
				if obj := m.vals.objOf(n.X); obj != nil {
					addrTaken[obj] = true
				}
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
					for _, l := range n.Lhs {
						if obj := m.vals.objOf(l); obj != nil {
							addrTaken[obj] = true
						}
					}
				}
			}
			return true
		})
	}
	m.pkgConsts = map[*types.Var]int64{}
	scope := m.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		v, ok := scope.Lookup(name).(*types.Var)
		if !ok || addrTaken[v] {
			continue
		}
		b, ok := v.Type().Underlying().(*types.Basic)
		if !ok || b.Info()&types.IsInteger == 0 {
			continue
		}
		vals := m.vals.assigns[v]
		if len(vals) != 1 || vals[0].value == nil {
			continue
		}
		tv, ok := info.Types[vals[0].value]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			continue
		}
		n, exact := constant.Int64Val(tv.Value)
		if !exact {
			continue
		}
		m.pkgConsts[v] = n
		m.pass.ExportObjectFact(v, &ConstFact{Value: n})
	}
}

// pkgVal returns the constant value of a package-level variable, of this
// package or (through ConstFact) another.
func (m *builder) pkgVal(v *types.Var) (constant.Value, bool) {
	if v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil, false
	}
	if v.Pkg() == m.pass.Pkg {
		n, ok := m.pkgConsts[v]
		if !ok {
			return nil, false
		}
		return constant.MakeInt64(n), true
	}
	var f ConstFact
	if m.pass.ImportObjectFact(v, &f) {
		return constant.MakeInt64(f.Value), true
	}
	return nil, false
}

func (m *builder) add(r *Retry) {
	if m.retryAt[r.Node] != nil {
		return
	}
	m.retryAt[r.Node] = r
	m.result.Retries = append(m.result.Retries, r)
}

// findRetries finds the retry sites of one file.
func (m *builder) findRetries(f *ast.File) {
	info := m.pass.TypesInfo
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				m.findLoops(n.Body)
			}
		case *ast.FuncLit:
			m.findLoops(n.Body)
			switch p := parent.(type) {
			case *ast.ReturnStmt, *ast.CompositeLit, *ast.KeyValueExpr:
				m.uncounted[n] = true
			case *ast.AssignStmt:
				for _, l := range p.Lhs {
					if _, isIdent := analysisutil.Unparen(l).(*ast.Ident); !isIdent {
						m.uncounted[n] = true
					} else if obj := m.vals.objOf(l); obj != nil && obj.Parent() == m.pass.Pkg.Scope() {
						m.uncounted[n] = true
					}
				}
			case *ast.ValueSpec:
				for _, id := range p.Names {
					if obj := info.Defs[id]; obj != nil && obj.Parent() == m.pass.Pkg.Scope() {
						m.uncounted[n] = true
					}
				}
			}
		}
		return true
	})
}

// findCalls recognizes the retry and breaker calls of one file (after the
// loops, so that the package's own retry helpers are known).
func (m *builder) findCalls(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			m.findCallRetry(call)
			m.findBreaker(call)
		}
		return true
	})
}

// findLoops judges the loops of one function body (not those of closures
// inside it, which are judged as functions of their own).
func (m *builder) findLoops(body *ast.BlockStmt) {
	in := &interp{info: m.pass.TypesInfo, pkgVals: m.pkgVal, opVars: map[types.Object]bool{}, delayFuncs: m.delayFuncs, pureWaits: m.pureWaits, imports: m.importWait, budget: stepsFunction}
	// Variables that hold an operation's error anywhere in the function.
	ast.Inspect(body, func(n ast.Node) bool {
		in.budget += stepsPerNode
		in.fnSize++
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if call, ok := analysisutil.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && in.isOp(call) {
					res := in.results(call)
					for i, l := range n.Lhs {
						if i < len(res) && analysisutil.IsErrorType(res[i]) {
							if obj := in.objOf(l); obj != nil {
								in.opVars[obj] = true
							}
						}
					}
				}
			}
		}
		return true
	})
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			label := ""
			m.judge(in, body, n.(ast.Stmt), label, nil, 0)
		case *ast.LabeledStmt:
			if _, isLoop := n.Stmt.(*ast.ForStmt); isLoop {
				m.judge(in, body, n.Stmt, n.Label.Name, nil, 0)
				ast.Inspect(n.Stmt.(*ast.ForStmt).Body, visit)
				return false
			}
			if _, isLoop := n.Stmt.(*ast.RangeStmt); isLoop {
				m.judge(in, body, n.Stmt, n.Label.Name, nil, 0)
				ast.Inspect(n.Stmt.(*ast.RangeStmt).Body, visit)
				return false
			}
		case *ast.BlockStmt:
			m.findGotoLoops(in, body, n.List)
		case *ast.CaseClause:
			m.findGotoLoops(in, body, n.Body)
		case *ast.CommClause:
			m.findGotoLoops(in, body, n.Body)
		}
		return true
	}
	ast.Inspect(body, visit)
}

// findGotoLoops finds labels in list that a later goto jumps back to.
func (m *builder) findGotoLoops(in *interp, body *ast.BlockStmt, list []ast.Stmt) {
	for i, st := range list {
		ls, ok := st.(*ast.LabeledStmt)
		if !ok {
			continue
		}
		if _, isLoop := ls.Stmt.(*ast.ForStmt); isLoop {
			continue
		}
		if _, isLoop := ls.Stmt.(*ast.RangeStmt); isLoop {
			continue
		}
		last := -1
		for j := i; j < len(list); j++ {
			ast.Inspect(list[j], func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil && b.Label.Name == ls.Label.Name {
					last = j
				}
				return true
			})
		}
		if last < 0 {
			continue
		}
		if r := m.judge(in, body, ls, ls.Label.Name, list, i); r != nil {
			r.Ops = nil
			for _, s := range list[i : last+1] {
				r.Ops = append(r.Ops, s)
				if s != ls {
					m.covered[s] = r
				}
			}
		}
	}
}

func (m *builder) judge(in *interp, body *ast.BlockStmt, stmt ast.Stmt, label string, gotoList []ast.Stmt, gotoIdx int) *Retry {
	// Judging a loop scans the function (its initial values, its delays):
	// that is paid from the function's budget too, so that a function of
	// many loops stays linear. Loops past the budget are not judged.
	in.budget -= in.fnSize
	if in.budget < 0 {
		return nil
	}
	if !m.mayRetry(in, stmt, gotoList, gotoIdx) {
		return nil
	}
	if m.iterates(in, stmt, gotoList, gotoIdx) {
		return nil
	}
	in.steps, in.aborted, in.immediate = 0, false, false
	v := in.judgeLoop(body, stmt, label, gotoList, gotoIdx)
	if !v.retry {
		return nil
	}
	r := &Retry{Kind: LoopRetry, Node: stmt, Pos: stmt.Pos(), End: stmt.Pos() + token.Pos(len("for")), Attempts: v.attempts, Immediate: in.immediate}
	switch st := stmt.(type) {
	case *ast.ForStmt:
		r.Ops = []ast.Node{st.Body}
		if st.Cond != nil {
			r.Ops = append(r.Ops, st.Cond)
		}
		if st.Post != nil {
			r.Ops = append(r.Ops, st.Post)
		}
	case *ast.RangeStmt:
		r.Ops = []ast.Node{st.Body}
	case *ast.LabeledStmt:
		r.Kind = GotoRetry
		r.End = st.Colon + 1
		r.Ops = []ast.Node{st}
	}
	if gotoList != nil {
		r.Ops = nil
		for _, s := range gotoList[gotoIdx:] {
			r.Ops = append(r.Ops, s)
		}
	}
	m.findDelays(r, body)
	// An immediate retry is one that never waits: a loop that waits on
	// some paths (after the first retry, on some errors) is judged by the
	// backoff of those waits instead.
	if r.Immediate && anyIn(r.Ops, in.waitsHere) {
		r.Immediate = false
	}
	r.TimeBounded = m.timeBounded(r.Ops)
	r.CountBounded = v.attempts > 0 || v.givesUp || m.countBounded(stmt, r.Ops)
	m.add(r)
	return r
}

// countBounded reports whether a loop compares a counter it advances
// (x++, x--, x += n, x -= n) with anything: an attempt limit, constant or
// configured.
func (m *builder) countBounded(stmt ast.Stmt, ops []ast.Node) bool {
	info := m.pass.TypesInfo
	if rs, ok := stmt.(*ast.RangeStmt); ok {
		if b, ok := info.TypeOf(rs.X).Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return true
		}
	}
	nodes := append([]ast.Node{stmt}, ops...)
	counters := map[types.Object]bool{}
	objOf := func(e ast.Expr) types.Object {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			return info.ObjectOf(x)
		case *ast.SelectorExpr:
			return info.Uses[x.Sel]
		}
		return nil
	}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.IncDecStmt:
				if obj := objOf(x.X); obj != nil {
					counters[obj] = true
				}
			case *ast.AssignStmt:
				if x.Tok == token.ADD_ASSIGN || x.Tok == token.SUB_ASSIGN {
					if obj := objOf(x.Lhs[0]); obj != nil {
						counters[obj] = true
					}
				}
			}
			return true
		})
	}
	found := false
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if be, ok := n.(*ast.BinaryExpr); ok && !found {
				switch be.Op {
				case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
					ast.Inspect(be, func(n ast.Node) bool {
						if e, ok := n.(ast.Expr); ok {
							if obj := objOf(e); obj != nil && counters[obj] {
								found = true
							}
						}
						return !found
					})
				}
			}
			return !found
		})
	}
	return found
}

// timeBounded reports whether a loop checks a context or the clock, calls
// a function that checks the context it is given (CtxCheckFact), or
// leaves when a channel other than a timer's is ready (a stop or close
// channel: another goroutine ends the loop).
func (m *builder) timeBounded(nodes []ast.Node) bool {
	info := m.pass.TypesInfo
	return anyIn(nodes, func(n ast.Node) bool {
		if cc, ok := n.(*ast.CommClause); ok {
			return m.stopCase(cc)
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn := analysisutil.Callee(info, call)
		if m.checksContext(fn, call) {
			return true
		}
		return analysisutil.IsMethod(fn, "context", "Context", "Done") || analysisutil.IsMethod(fn, "context", "Context", "Err") ||
			analysisutil.IsMethod(fn, "context", "Context", "Deadline") ||
			analysisutil.IsFunc(fn, "time", "Since") || analysisutil.IsFunc(fn, "time", "Until") || analysisutil.IsFunc(fn, "time", "Now") ||
			analysisutil.IsFunc(fn, catalog.ResilintRetry, "Sleep")
	})
}

// mayRetry is the cheap test before judging: the loop calls something
// fallible.
func (m *builder) mayRetry(in *interp, stmt ast.Stmt, gotoList []ast.Stmt, gotoIdx int) bool {
	return anyIn(loopNodes(stmt, gotoList, gotoIdx), func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		return ok && in.isOp(c)
	})
}

// findCallRetry recognizes a catalogued retry call.
func (m *builder) findCallRetry(call *ast.CallExpr) {
	info := m.pass.TypesInfo
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return
	}
	if h := m.helperOf(fn); h != nil {
		m.helperCall(call, fn, h)
		return
	}
	row := catalogRow(fn)
	if row == nil {
		return
	}
	r := &Retry{Node: call, Pos: call.Fun.Pos(), End: call.Fun.End(), Row: row}
	switch row.Role {
	case catalog.Retry:
		r.Kind = LibraryRetry
		if row.Recv == "Executor" {
			// failsafe-go: a retry only if the executor has a retry policy.
			sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return
			}
			policies, _ := m.executorPolicies(sel.X, 0)
			var bs []bound
			for _, p := range policies {
				if m.isRetryPolicy(p) {
					bs = append(bs, m.boundDepth(p, 0))
				}
			}
			if len(bs) == 0 {
				return
			}
			b := combine(bs)
			if len(bs) > 1 && b.set && b.attempts > 0 {
				// Retry policies composed in one executor multiply.
				n := int64(1)
				for _, x := range bs {
					n = mul(n, x.attempts)
				}
				b.attempts = n
			}
			r.Attempts = b.attempts
		} else {
			b := m.siteBound(call, row)
			if b.set && b.attempts == 1 {
				return // configured not to retry (a call path without a retry policy)
			}
			r.Attempts = b.attempts
		}
		if row.OpArg < len(call.Args) {
			m.setOp(r, call.Args[row.OpArg])
		}
	case catalog.RetrySend:
		r.Kind = ClientRetry
		b := m.siteBound(call, row)
		if b.set && b.attempts == 1 {
			return // RetryMax 0: the client does not retry
		}
		r.Attempts = b.attempts
	case catalog.Send:
		// net/http: retries only through a retryablehttp StandardClient.
		sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return
		}
		var bs []bound
		var through *catalog.Row
		for _, o := range m.vals.trace(sel.X) {
			c, ok := analysisutil.Unparen(o.expr).(*ast.CallExpr)
			if !ok {
				continue
			}
			if cf := analysisutil.Callee(info, c); cf != nil {
				if cr := catalogRow(cf); cr != nil && cr.Role == catalog.RetryingClient {
					through = cr
					bs = append(bs, m.innerBound(c, cr, 0))
				}
			}
		}
		if through == nil {
			return
		}
		b := combine(bs)
		if b.set && b.attempts == 1 {
			return
		}
		r.Kind = ClientRetry
		r.Attempts = b.attempts
		r.Through = through.Lib
		r.Row = &catalog.Row{Path: row.Path, Recv: row.Recv, Name: row.Name, Role: row.Role, Lib: row.Lib, Disable: through.Disable}
	default:
		return
	}
	m.add(r)
	m.libConfigs(r, call)
}

// setOp records the operation argument of a library retry.
func (m *builder) setOp(r *Retry, arg ast.Expr) {
	info := m.pass.TypesInfo
	for _, o := range m.vals.trace(arg) {
		switch x := analysisutil.Unparen(o.expr).(type) {
		case *ast.FuncLit:
			r.Ops = append(r.Ops, x.Body)
		case *ast.Ident:
			if fn, ok := info.Uses[x].(*types.Func); ok {
				r.OpFuncs = append(r.OpFuncs, fn.Origin())
			}
		case *ast.SelectorExpr:
			if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
				r.OpFuncs = append(r.OpFuncs, fn.Origin())
			}
		case *ast.IndexExpr:
			if fn, ok := funcOfExpr(info, x.X); ok {
				r.OpFuncs = append(r.OpFuncs, fn)
			}
		}
	}
}

func funcOfExpr(info *types.Info, e ast.Expr) (*types.Func, bool) {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		fn, ok := info.Uses[x].(*types.Func)
		if ok {
			return fn.Origin(), true
		}
	case *ast.SelectorExpr:
		fn, ok := info.Uses[x.Sel].(*types.Func)
		if ok {
			return fn.Origin(), true
		}
	}
	return nil, false
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
	r.Inner = inner
	per := int64(1)
	if len(inner) > 0 {
		per = sumReaches(inner)
	}
	r.Amp = mul(r.Attempts, per)
	r.ampState = 2
	return r.Amp
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
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if n == nil {
			return false
		}
		if r := m.retryAt[n]; r != nil && r != self {
			m.amp(r)
			out = append(out, &Reach{Pos: r.Pos, Retry: r})
			return false
		}
		if r := m.covered[n]; r != nil && r != self {
			return false // part of a goto loop, reached through its label
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			if m.uncounted[x] {
				return false
			}
		case *ast.CallExpr:
			if fn := analysisutil.Callee(info, x); fn != nil {
				addFunc(x.Pos(), fn)
			} else if id, ok := analysisutil.Unparen(x.Fun).(*ast.Ident); ok {
				// A call of a local function variable: op := func() {...}; op().
				if v, ok := info.Uses[id].(*types.Var); ok && isLocal(v) && !m.walkingLits[v] {
					m.walkingLits[v] = true
					for _, a := range m.vals.assigns[v] {
						if lit, ok := analysisutil.Unparen(a.value).(*ast.FuncLit); ok && a.value != nil {
							out = append(out, m.reachesIn(lit.Body, self)...)
						}
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

// summary returns the RetryFact of fn: computed for this package's
// functions, imported for others. nil if fn does not retry.
func (m *builder) summary(fn *types.Func) *RetryFact {
	return summarize(m, m.summaries, fn, func(fn *types.Func, d *ast.FuncDecl) *RetryFact {
		reaches := m.reachesIn(d.Body, nil)
		var f *RetryFact
		if len(reaches) > 0 {
			f = &RetryFact{Calls: sumReaches(reaches)}
			w := worst(reaches)
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
	d := 0
	for _, in := range r.Inner {
		var x int
		if in.Retry != nil {
			x = retryDepth(in.Retry)
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

// stdRoots are the first elements of the standard library's import paths.
var stdRoots = map[string]bool{
	"archive": true, "bufio": true, "bytes": true, "cmp": true, "compress": true, "container": true,
	"context": true, "crypto": true, "database": true, "debug": true, "embed": true, "encoding": true,
	"errors": true, "expvar": true, "flag": true, "fmt": true, "go": true, "hash": true, "html": true,
	"image": true, "index": true, "internal": true, "io": true, "iter": true, "log": true, "maps": true,
	"math": true, "mime": true, "net": true, "os": true, "path": true, "plugin": true, "reflect": true,
	"regexp": true, "runtime": true, "slices": true, "sort": true, "strconv": true, "strings": true,
	"structs": true, "sync": true, "syscall": true, "testing": true, "text": true, "time": true,
	"unicode": true, "unique": true, "unsafe": true, "weak": true, "vendor": true, "cmd": true,
}

func isStd(path string) bool {
	first := path
	if i := strings.IndexByte(path, '/'); i >= 0 {
		first = path[:i]
	}
	return stdRoots[first]
}

// iterates reports whether the loop feeds its operations a changing input,
// which makes it a search or an iteration rather than a retry: an index
// that the loop advances (`batches[m.index]`, `m.index++`), or a string or
// number it derives from its own previous value (`name = name[:i]`,
// `size *= 2`). Attempt counters (`attempt++`) passed as plain arguments,
// durations (growing timeouts) and rebuilt requests do not count.
func (m *builder) iterates(in *interp, stmt ast.Stmt, gotoList []ast.Stmt, gotoIdx int) bool {
	info := m.pass.TypesInfo
	nodes := loopNodes(stmt, gotoList, gotoIdx)
	objOf := func(e ast.Expr) types.Object {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			return info.Uses[x]
		case *ast.SelectorExpr:
			return info.Uses[x.Sel]
		}
		return nil
	}
	mentions := func(e ast.Node, obj types.Object) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj {
				found = true
			}
			return !found
		})
		return found
	}
	advanced := map[types.Object]bool{} // modified in the loop
	derived := map[types.Object]bool{}  // modified from its own value, not as a counter
	var ops []*ast.CallExpr
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IncDecStmt:
				if obj := objOf(x.X); obj != nil {
					advanced[obj] = true
				}
			case *ast.AssignStmt:
				if x.Tok == token.DEFINE {
					return true
				}
				for i, l := range x.Lhs {
					obj := objOf(l)
					if obj == nil {
						continue
					}
					advanced[obj] = true
					counter := (x.Tok == token.ADD_ASSIGN || x.Tok == token.SUB_ASSIGN) && len(x.Rhs) == 1 && info.Types[x.Rhs[0]].Value != nil
					self := x.Tok != token.ASSIGN || (len(x.Rhs) == len(x.Lhs) && (mentions(x.Rhs[i], obj) || m.derivedVia(x.Rhs[i], obj, nodes)))
					if self && !counter && isPlainValue(obj.Type()) {
						derived[obj] = true
					}
				}
			case *ast.CallExpr:
				if in.isOp(x) {
					ops = append(ops, x)
				}
			}
			return true
		})
	}
	// for x := first(); x != nil; x = next(): the loop walks candidates
	// (brokers, replicas), each tried once.
	if fs, ok := stmt.(*ast.ForStmt); ok && fs.Post != nil {
		if as, ok := fs.Post.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				obj := objOf(l)
				if obj == nil || isPlainValue(obj.Type()) && mentions(as.Rhs[i], obj) {
					continue // a counter
				}
				for _, call := range ops {
					if mentions(call, obj) {
						return true
					}
				}
			}
		}
	}
	for _, call := range ops {
		var parts []ast.Node
		for _, a := range call.Args {
			parts = append(parts, a)
		}
		if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			parts = append(parts, sel.X)
		}
		for _, p := range parts {
			changing := false
			ast.Inspect(p, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.IndexExpr:
					ast.Inspect(x.Index, func(n ast.Node) bool {
						if e, ok := n.(ast.Expr); ok {
							if obj := objOf(e); obj != nil && advanced[obj] {
								changing = true
							}
						}
						return !changing
					})
				case *ast.SliceExpr:
					for _, b := range []ast.Expr{x.Low, x.High, x.Max} {
						if b != nil {
							ast.Inspect(b, func(n ast.Node) bool {
								if e, ok := n.(ast.Expr); ok {
									if obj := objOf(e); obj != nil && derived[obj] {
										changing = true
									}
								}
								return !changing
							})
						}
					}
				case *ast.Ident:
					if obj := info.Uses[x]; obj != nil && derived[obj] {
						changing = true
					}
				}
				return !changing
			})
			if changing {
				return true
			}
		}
	}
	return false
}

// isPlainValue reports whether t is a number (not a duration) or a string.
func isPlainValue(t types.Type) bool {
	if analysisutil.IsNamedType(t, "time", "Duration") {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat|types.IsString) != 0
}

// derivedVia reports whether e is a variable that the loop computes from
// obj: parent := filepath.Dir(dir); ...; dir = parent.
func (m *builder) derivedVia(e ast.Expr, obj types.Object, nodes []ast.Node) bool {
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v := m.pass.TypesInfo.Uses[id]
	if v == nil {
		return false
	}
	inLoop := func(pos token.Pos) bool {
		for _, n := range nodes {
			if n.Pos() <= pos && pos < n.End() {
				return true
			}
		}
		return false
	}
	for _, a := range m.vals.assigns[v] {
		if a.value == nil || !inLoop(a.pos) {
			continue
		}
		found := false
		ast.Inspect(a.value, func(n ast.Node) bool {
			if x, ok := n.(*ast.Ident); ok && m.pass.TypesInfo.Uses[x] == obj {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
