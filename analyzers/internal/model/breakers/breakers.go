package breakers

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// Analyzer is the breaker layer. It reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:       "resilbreakers",
	Doc:        "find circuit breaker calls, the retries that run outside them and how those treat the open error (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Requires:   []*analysis.Analyzer{model.Analyzer, provenance.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*BreakerFact)(nil)},
}

// Result lists the package's retries that reach a circuit breaker or
// compose a failsafe-go retry policy outside one, in the model's order.
type Result struct {
	Retries []*RetryBreakers
}

// RetryBreakers is what the layer knows of one retry and the breakers
// it reaches.
type RetryBreakers struct {
	Retry *model.Retry
	// Breakers lists the circuit breaker calls one attempt reaches: the
	// retry runs outside those breakers. StopsOnOpen says the retry stops
	// at once on a breaker's open error; RetriesOpen that it explicitly
	// retries it. Order is set for a failsafe-go executor that lists its
	// retry policy before its circuit breaker.
	Breakers    []*BreakerReach
	StopsOnOpen bool
	RetriesOpen bool
	Order       *Order
}

type layer struct {
	vals *provenance.Values
	pass *analysis.Pass
	res  *model.Result
	at   map[*ast.CallExpr]*BreakerSite
	done map[*types.Func]*BreakerFact
	busy map[*types.Func]bool
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	out := &Result{}
	if res.Opaque() {
		return out, nil
	}
	m := &layer{pass: pass, res: res, vals: pass.ResultOf[provenance.Analyzer].(*provenance.Values), at: map[*ast.CallExpr]*BreakerSite{}, done: map[*types.Func]*BreakerFact{}, busy: map[*types.Func]bool{}}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				m.findBreaker(call)
			}
			return true
		})
	}
	for _, r := range res.Retries {
		rb := &RetryBreakers{Retry: r}
		for _, op := range r.Ops {
			rb.Breakers = append(rb.Breakers, m.breakersIn(op, r.Node)...)
		}
		for _, fn := range r.OpFuncs {
			if f := m.breakerSummary(fn); f != nil {
				rb.Breakers = append(rb.Breakers, &BreakerReach{Pos: r.Pos, Callee: fn, Fact: f})
			}
		}
		if call, ok := r.Node.(*ast.CallExpr); ok && r.Row != nil && r.Row.Recv == "Executor" {
			m.failsafeOrder(rb, call)
		}
		rb.Breakers = dedupeBreakers(rb.Breakers)
		if len(rb.Breakers) > 0 || rb.Order != nil {
			m.openHandling(rb)
			out.Retries = append(out.Retries, rb)
		}
	}
	decls := res.Decls()
	fns := make([]*types.Func, 0, len(decls))
	for fn := range decls {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	for _, fn := range fns {
		if f := m.breakerSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
	}
	return out, nil
}

func catalogRow(fn *types.Func) *catalog.Row {
	return catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
}

func (m *layer) callOf(e ast.Expr) (*ast.CallExpr, *types.Func) {
	c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	return c, analysisutil.Callee(m.pass.TypesInfo, c)
}

// funcOfExpr returns the function a function value names.
func funcOfExpr(info *types.Info, e ast.Expr) (*types.Func, bool) {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		if fn, ok := info.Uses[x].(*types.Func); ok {
			return fn.Origin(), true
		}
	case *ast.SelectorExpr:
		if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
			return fn.Origin(), true
		}
	}
	return nil, false
}

// BreakerSite is a call through a circuit breaker.
type BreakerSite struct {
	Call *ast.CallExpr
	Pos  token.Pos
	Desc string // "gobreaker CircuitBreaker.Execute", "failsafe circuit breaker policy"
	Path string // the breaker library's import path
}

// BreakerFact is exported for every function that calls through a circuit
// breaker, directly or through any chain of calls.
type BreakerFact struct {
	Via  []string // functions from the callee down to the one with the breaker call
	Site string   // "gobreaker CircuitBreaker.Execute at client.go:12"
	Path string   // the breaker library's import path
}

func (*BreakerFact) AFact() {}

func (f *BreakerFact) String() string {
	if len(f.Via) > 0 {
		return "breaker(via " + strings.Join(f.Via, " → ") + ")"
	}
	return "breaker"
}

// BreakerReach is a breaker call reached from one attempt of a retry.
type BreakerReach struct {
	Pos    token.Pos
	Site   *BreakerSite // a breaker call of this package
	Callee *types.Func  // or a function that calls one
	Fact   *BreakerFact
}

// Order is the failsafe-go policy order of an executor that composes a
// retry policy outside a circuit breaker: policies are outermost first.
// Retry and Breaker are both arguments of the one With call.
type Order struct {
	Retry, Breaker ast.Expr // the policy arguments
}

func (m *layer) breakerRow(call *ast.CallExpr) *catalog.Row {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return nil
	}
	if row := catalogRow(fn); row != nil && row.Role == catalog.Breaker {
		return row
	}
	return nil
}

func (m *layer) isPolicy(e ast.Expr, role catalog.Role) bool {
	t := m.pass.TypesInfo.TypeOf(e)
	for i := range catalog.Rows {
		r := &catalog.Rows[i]
		if r.Role == role && analysisutil.IsNamedType(t, r.Path, r.Name) {
			return true
		}
	}
	return false
}

// findBreaker records a breaker call (or a failsafe-go executor call with
// a circuit breaker policy).
func (m *layer) findBreaker(call *ast.CallExpr) {
	if row := m.breakerRow(call); row != nil {
		m.at[call] = &BreakerSite{Call: call, Pos: call.Fun.Pos(), Desc: row.Lib, Path: row.Path}
		return
	}
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return
	}
	row := catalogRow(fn)
	if row == nil || row.Role != catalog.Retry || row.Recv != "Executor" {
		return
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	policies, _ := m.res.ExecutorPolicies(sel.X)
	for _, p := range policies {
		if m.isPolicy(p, catalog.BreakerPolicyType) {
			m.at[call] = &BreakerSite{Call: call, Pos: call.Fun.Pos(), Desc: "failsafe-go circuit breaker policy", Path: catalog.FailsafeCB}
			return
		}
	}
}

// failsafeOrder finds a retry policy listed before a circuit breaker in a
// failsafe-go executor: the retry runs outside the breaker.
func (m *layer) failsafeOrder(r *RetryBreakers, call *ast.CallExpr) {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	for _, o := range m.vals.Trace(sel.X) {
		c, fn := m.callOf(o.Expr)
		if fn == nil || !analysisutil.IsFunc(fn, catalog.Failsafe, "With") {
			continue
		}
		ri, bi := -1, -1
		for i, a := range c.Args {
			switch {
			case m.res.IsRetryPolicy(a) && ri < 0:
				ri = i
			case m.isPolicy(a, catalog.BreakerPolicyType) && bi < 0:
				bi = i
			}
		}
		if ri < 0 || bi < 0 || ri > bi {
			continue
		}
		r.Order = &Order{Retry: c.Args[ri], Breaker: c.Args[bi]}
		return
	}
	// failsafe.With(rp).Compose(cb): the executor's policies wrap the
	// one Compose adds. Followed in one chain of calls only, so that
	// the policies are written in one statement.
	var chain []ast.Expr // outermost first
	var walk func(e ast.Expr) bool
	walk = func(e ast.Expr) bool {
		c, fn := m.callOf(analysisutil.Unparen(e))
		if fn == nil {
			return false
		}
		if analysisutil.IsFunc(fn, catalog.Failsafe, "With") {
			chain = append(chain, c.Args...)
			return true
		}
		row := catalogRow(fn)
		inner, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr)
		if row == nil || row.Role != catalog.ExecutorWrapper || !ok || !walk(inner.X) {
			return false
		}
		if row.BoundArg >= 0 {
			chain = append(chain, c.Args...)
		}
		return true
	}
	if c, ok := analysisutil.Unparen(sel.X).(*ast.CallExpr); !ok || !walk(c) {
		return
	}
	ri, bi := -1, -1
	for i, a := range chain {
		switch {
		case m.res.IsRetryPolicy(a) && ri < 0:
			ri = i
		case m.isPolicy(a, catalog.BreakerPolicyType) && bi < 0:
			bi = i
		}
	}
	if ri >= 0 && bi >= 0 && ri < bi {
		r.Order = &Order{Retry: chain[ri], Breaker: chain[bi]}
	}
}

// breakersIn lists the breaker calls reached from root: breaker calls,
// and calls of functions that call through a breaker.
func (m *layer) breakersIn(root ast.Node, self ast.Node) []*BreakerReach {
	info := m.pass.TypesInfo
	var out []*BreakerReach
	addFunc := func(pos token.Pos, fn *types.Func) {
		if f := m.breakerSummary(fn); f != nil {
			out = append(out, &BreakerReach{Pos: pos, Callee: fn, Fact: f})
		}
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			if m.res.Uncounted(x) {
				return false
			}
		case *ast.CallExpr:
			if s := m.at[x]; s != nil && ast.Node(x) != self {
				out = append(out, &BreakerReach{Pos: s.Pos, Site: s})
				return true
			}
			if fn := analysisutil.Callee(info, x); fn != nil {
				addFunc(x.Pos(), fn)
			}
		}
		return true
	})
	return dedupeBreakers(out)
}

func dedupeBreakers(rs []*BreakerReach) []*BreakerReach {
	seen := map[token.Pos]bool{}
	var out []*BreakerReach
	for _, r := range rs {
		if !seen[r.Pos] {
			seen[r.Pos] = true
			out = append(out, r)
		}
	}
	return out
}

// breakerSummary returns the BreakerFact of fn, computed for this
// package's functions (a function met again while its own is computed
// answers nil: recursion adds nothing) and imported for others.
func (m *layer) breakerSummary(fn *types.Func) *BreakerFact {
	fn = fn.Origin()
	if fn.Pkg() != m.pass.Pkg {
		var f BreakerFact
		if fn.Pkg() != nil && m.pass.ImportObjectFact(fn, &f) {
			return &f
		}
		return nil
	}
	if f, ok := m.done[fn]; ok {
		return f
	}
	d := m.res.Decl(fn)
	if d == nil || m.busy[fn] {
		return nil
	}
	m.busy[fn] = true
	reach := m.breakersIn(d.Body, nil)
	var f *BreakerFact
	if len(reach) > 0 {
		w := reach[0]
		if w.Site != nil {
			f = &BreakerFact{Site: fmt.Sprintf("%s at %s", w.Site.Desc, analysisutil.ShortPos(m.pass.Fset, w.Site.Pos)), Path: w.Site.Path}
		} else {
			f = &BreakerFact{Via: append([]string{analysisutil.FuncName(w.Callee, nil)}, w.Fact.Via...), Site: w.Fact.Site, Path: w.Fact.Path}
		}
	}
	delete(m.busy, fn)
	m.done[fn] = f
	return f
}
