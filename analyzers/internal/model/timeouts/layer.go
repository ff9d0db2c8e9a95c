package timeouts

import (
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/hostlocal"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
	"github.com/resilint/resilint/analyzers/internal/model/sends"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// Analyzer is the timeouts pass.
var Analyzer = &analysis.Analyzer{
	Name:       "resiltimeouts",
	Doc:        "state the package's timeouts and deadlines, and how its retries fit in them (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer, model.Analyzer, provenance.Analyzer, sends.Analyzer, waits.Analyzer, hostlocal.Analyzer},
	ResultType: reflect.TypeOf((*Timeouts)(nil)),
	FactTypes:  []analysis.Fact{(*TimeoutFact)(nil), (*CarrierFact)(nil), (*ValueContextFact)(nil), (*UnreadFact)(nil), (*HijackFact)(nil), (*BoundsFact)(nil), (*DetachFact)(nil), (*BgWrapperFact)(nil), (*LifetimeFact)(nil), (*NoContextFact)(nil)},
}

type layer struct {
	pass      *analysis.Pass
	res       *model.Result
	sends     *sends.Result
	waits     *waits.Result
	hostlocal *hostlocal.Result
	vals      *provenance.Values
	summaries *provenance.Summaries[TimeoutFact]
	carriers  *provenance.Summaries[CarrierFact]
	valueCtxs *provenance.Summaries[ValueContextFact]
	noContext *provenance.Summaries[NoContextFact]
	calls     *callIndex                     // built on first need (callers.go)
	parents   map[ast.Node]ast.Node          // built on first need (guards.go)
	unread    map[*types.Var]bool            // unreadParam's answers, for parameters asked first (dropped.go)
	detached  map[*types.Var]bool            // detachedParam's answers, likewise (detaches.go)
	lifetimes map[*types.Var]bool            // lifetimeParam's answers, likewise (lifetimes.go)
	roots     map[*types.Var]*ast.AssignStmt // rootAssign's answers (lifetimes.go)
	impls     map[*types.Func][]*types.Func  // the package's implementations of its interface methods (lifetimes.go)
	following map[*types.Var]bool            // the locals neverRunUnder is judging (dropped.go)
	hijackers map[*types.Func]bool           // functions that take an HTTP connection over (hijack.go)
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	if res.Opaque() {
		// The standard library is opaque to the model.
		return (*Timeouts)(nil), nil
	}
	m := &layer{
		pass:      pass,
		res:       res,
		sends:     pass.ResultOf[sends.Analyzer].(*sends.Result),
		waits:     pass.ResultOf[waits.Analyzer].(*waits.Result),
		hostlocal: pass.ResultOf[hostlocal.Analyzer].(*hostlocal.Result),
		vals:      pass.ResultOf[provenance.Analyzer].(*provenance.Values),
		summaries: provenance.NewSummaries[TimeoutFact](),
		carriers:  provenance.NewSummaries[CarrierFact](),
		valueCtxs: provenance.NewSummaries[ValueContextFact](),
		noContext: provenance.NewSummaries[NoContextFact](),
		unread:    map[*types.Var]bool{},
		detached:  map[*types.Var]bool{},
		lifetimes: map[*types.Var]bool{},
		following: map[*types.Var]bool{},
	}
	m.findHijackers()
	for _, fn := range m.vals.Funcs() {
		if f := m.timeoutSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.carrierSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.valueSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.unreadSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.boundsSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.detachSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.bgWrapperSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.lifetimeSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.noContextSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
	}
	m.exportLifetimes()
	return m.findTimeouts(), nil
}
