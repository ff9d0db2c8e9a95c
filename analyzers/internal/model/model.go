package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"sort"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/hostlocal"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
)

// Analyzer is the model pass.
var Analyzer = &analysis.Analyzer{
	Name:       "resilmodel",
	Doc:        "recognize retries, their attempt bounds and what they reach (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer, provenance.Analyzer, waits.Analyzer, hostlocal.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*RetryFact)(nil), (*RetryHelperFact)(nil), (*FieldsFact)(nil), (*IdentifyFact)(nil), (*StatusFieldsFact)(nil), (*NeverTrueFact)(nil), (*SessionFact)(nil), (*RunsSessionFact)(nil), (*ProbeFact)(nil), (*KeepsFuncFact)(nil), (*DelayParamFact)(nil), (*StateGetterFact)(nil), (*OutageFact)(nil), (*StatusTestFact)(nil), (*StatefulPredFact)(nil), (*StopWaitFact)(nil)},
}

type builder struct {
	pass             *analysis.Pass
	vals             *provenance.Values
	retryAt          map[ast.Node]*Retry
	covered          map[ast.Node]*Retry  // statements of a goto loop after its label
	steps            map[stepKey]bool     // stepsParam's answers, each helper's body walked once per parameter
	nilVerdicts      map[*types.Func]bool // nilVerdict's answers, each function's body walked once
	hookGates        map[*types.Func]bool // hookGated's answers
	uncounted        map[*ast.FuncLit]bool
	throughFrom      map[[2]*types.Var]bool // writesThroughFrom's answers, by (dst, src) parameter
	summaries        *summaries[RetryFact]
	delayFuncs       map[*types.Func]bool
	pureWaits        map[*types.Func]bool
	waitLayer        *waits.Result
	walkingLits      map[*types.Var]bool
	helpers          map[*types.Func]*RetryHelperFact
	fsummaries       *summaries[FieldsFact]
	popsMemo         map[*ast.FuncDecl]bool            // methods that take a value off a receiver field (changing.go)
	stopMemo         map[ast.Node]bool                 // function bodies that wait on a stop kept outside them (waits.go)
	stopWaits        map[*types.Func]bool              // functions that wait on a stop, or return what one does (stopwaits.go)
	keeps            map[*types.Func][]int             // function parameters kept to run later (stored.go)
	paramStops       map[*types.Var]bool               // channel parameters a function returns on receiving from (waits.go)
	yields           map[types.Object]bool             // the yield parameters of iterator functions
	viaMemo          viaMemo                           // derivedVia's memo for the loop being judged (iterates.go)
	writeIdx         map[*ast.BlockStmt]*writeIndex    // each function body's writes (writesOf)
	litSpans         map[*ast.BlockStmt][]*ast.FuncLit // each function body's outermost function literals (inFuncLit)
	classifiers      map[*types.Func]IdentifyFact      // identifying functions (classifiers.go)
	statusTests      map[*types.Func]*StatusTestFact   // response status tests (statustests.go)
	statusFields     map[string]bool                   // fields that hold a response's status (statusfields.go)
	neverTrueFuncs   map[*types.Func]bool              // functions whose bool first result is always false (predicates.go)
	statefulMakers   map[*types.Func]bool              // functions that make stateful predicates (statefulpreds.go)
	localSentinels   map[*types.Var]bool               // local variables holding an error made once in the function (sentinels.go)
	statusVars       map[types.Object]types.Object     // local variables holding a response's status, to the response (statusfields.go)
	outageVars       map[*types.Var]bool               // package-level errors an outage gives every client (outagevars.go)
	sessionFuncs     map[*types.Func]bool              // functions that return only non-nil errors (sessions.go)
	runsSessionFuncs map[*types.Func]bool              // functions with no error result that run a session to its end (runsessions.go)
	probeFuncs       map[*types.Func]bool              // functions that only ask whether a dependency answers (statusprobes.go)
	result           *Result
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
		vals:        pass.ResultOf[provenance.Analyzer].(*provenance.Values),
		retryAt:     map[ast.Node]*Retry{},
		covered:     map[ast.Node]*Retry{},
		uncounted:   map[*ast.FuncLit]bool{},
		summaries:   newSummaries[RetryFact](),
		walkingLits: map[*types.Var]bool{},
		helpers:     map[*types.Func]*RetryHelperFact{},
		result:      &Result{Funcs: map[*types.Func]*RetryFact{}, SitePos: map[*types.Func]token.Pos{}},
	}
	m.result.b = m
	m.waitLayer = pass.ResultOf[waits.Analyzer].(*waits.Result)
	m.delayFuncs, m.pureWaits = m.waitLayer.WaitFuncs, m.waitLayer.PureWaits
	m.yields = findYields(pass.TypesInfo, pass.Files)
	m.localSentinels = findLocalSentinels(pass.TypesInfo, m.vals)
	m.statusVars = findStatusVars(pass.TypesInfo, m.vals, pass.Files)
	m.findStatusFields()
	m.findOutageVars()
	m.findClassifiers()
	m.findStatusTests()
	m.findKeepers()
	m.findNeverTrue()
	m.findStatefulPreds()
	m.findSessions()
	m.findRunsSessions()
	m.findProbes()
	m.exportStateGetters()
	m.exportStopWaits()
	for _, f := range pass.Files {
		m.findRetries(f)
	}
	m.findHelpers()
	for _, f := range pass.Files {
		m.findCalls(f)
	}
	// A wrapper of a library retry or of another helper
	// (`func withRetry(f func() error) error { return backoff.Retry(f, b)
	// }`) is a helper too, known only once the calls are: its calls are
	// retry sites. A few rounds reach wrappers of wrappers.
	for range 3 {
		n := len(m.helpers)
		m.findHelpers()
		if len(m.helpers) == n {
			break
		}
		for _, f := range pass.Files {
			m.findHelperCalls(f)
		}
	}
	sort.Slice(m.result.Retries, func(i, j int) bool { return m.result.Retries[i].Pos < m.result.Retries[j].Pos })
	m.spacedRounds()
	m.markImplementations()
	m.findDelayParams()
	for _, r := range m.result.Retries {
		m.amp(r)
	}
	m.dropCycles()
	fns := m.vals.Funcs()
	for _, fn := range fns {
		if f := m.summary(fn); f != nil {
			m.result.Funcs[fn] = f
			pass.ExportObjectFact(fn, f)
		}
		if f := m.fieldsFact(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
	}
	m.findCountedCalls()
	return m.result
}

// pkgVal returns the constant value of a package-level variable, of this
// package or another (provenance's ConstFact).
// newInterp is a loop interpreter over the package's facts: its waits,
// delays, sentinels, status fields and package-level constants. The
// caller adds what only its own judgement needs (a step budget, the
// variables holding an operation's error, sessions).
func (m *builder) newInterp() *interp {
	return &interp{
		pkg: m.pass.Pkg, info: m.pass.TypesInfo,
		sentinelVars: m.localSentinels, statusVars: m.statusVars, outage: m.isOutageVar, closureWait: m.closureWaitsAt, pkgVals: m.pkgVal,
		delayFuncs: m.delayFuncs, pureWaits: m.pureWaits, waitMethods: m.waitLayer.WaitMethods, imports: m.importWait, importMay: m.waitLayer.ImportedMayWait,
		classifier: m.classifier, statusTest: m.statusTest, statusFields: m.statusFields, hookGated: m.hookGated,
		writesOf: m.writesOf, statefulPred: m.statefulPredCall, asks: m.asksCall,
	}
}

// writesOf indexes the writes of a function's body once for all its
// loops.
func (m *builder) writesOf(body *ast.BlockStmt) *writeIndex {
	if idx, ok := m.writeIdx[body]; ok {
		return idx
	}
	if m.writeIdx == nil {
		m.writeIdx = map[*ast.BlockStmt]*writeIndex{}
	}
	idx := indexWrites(m.pass.TypesInfo, body)
	m.writeIdx[body] = idx
	return idx
}

func (m *builder) pkgVal(v *types.Var) (constant.Value, bool) { return m.vals.Const(v) }

func isStd(path string) bool { return analysisutil.IsStd(path) }

func isLocal(obj types.Object) bool { return provenance.IsLocal(obj) }

func catalogRow(fn *types.Func) *catalog.Row {
	return catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
}

// callOfRole reports whether call is of a function whose catalog row has
// role (catalog.Permanent: backoff.Permanent; catalog.Pure: strconv.Atoi).
func callOfRole(info *types.Info, call *ast.CallExpr, role catalog.Role) bool {
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return false
	}
	row := catalogRow(fn)
	return row != nil && row.Role == role
}
