package waits

import (
	"go/ast"
	"go/types"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// Analyzer is the waits pass.
var Analyzer = &analysis.Analyzer{
	Name:       "resilwaits",
	Doc:        "find the functions that wait, draw random values or identifiers or check their context, and read the shape of delays (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	Requires:   []*analysis.Analyzer{provenance.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*WaitFact)(nil), (*RandomFact)(nil), (*CtxCheckFact)(nil), (*CapFact)(nil), (*MakerFact)(nil), (*DelayFact)(nil), (*MayWaitFact)(nil), (*FreshIDFact)(nil)},
}

// Result is the waits layer of one package: its functions that wait,
// return a random value or check their context (those of other packages
// are known by their facts), and the questions the model asks about the
// waits of a retry.
type Result struct {
	// WaitFuncs are the package's functions that wait on every call
	// (WaitFact); PureWaits those of them that do nothing fallible but
	// wait.
	WaitFuncs map[*types.Func]bool
	PureWaits map[*types.Func]bool
	// JitterWaits are the WaitFuncs that draw a random number beside the
	// duration they are given (WaitFact.Jitters).
	JitterWaits map[*types.Func]bool
	// FixedWaits are the WaitFuncs that wait a delay of their own with
	// no random part, given only counts and contexts (WaitFact.Fixed).
	FixedWaits map[*types.Func]bool
	// BlindWaits are the WaitFuncs whose every wait is a time.Sleep or a
	// bare timer receive (WaitFact.Blind).
	BlindWaits map[*types.Func]bool
	// WaitMethods are the calls that may wait, and the model cannot
	// tell that they do not: the methods of the package's interfaces
	// that a type of the package implements with a method that waits,
	// and the package's functions that run hooks (call a function value
	// held in a field, such as a list of handlers) or call such a
	// function.
	WaitMethods map[*types.Func]bool

	pass        *analysis.Pass
	vals        *provenance.Values
	randomFuncs map[*types.Func]bool
	freshIDs    map[*types.Func]bool // the package's fresh-identifier functions (freshid.go)
	ctxChecks   map[*types.Func]int  // functions that check their context parameter, by its index
	capFuncs    map[*types.Func]*CapFact
	makers      map[*types.Func]bool // functions that return a waiting closure (MakerFact)
	delays      map[*types.Func]*DelayFact
	timeouts    map[*types.Func][]int // duration parameters that are timeouts (WaitFact.Timeouts)
	terminals   map[*types.Func]bool  // wait functions that read the standard input (WaitFact.Terminal)
	// randomFields are the fields the package sets from a random draw
	// (computed when first needed).
	randomOnce   sync.Once
	randomFields map[*types.Var]bool
	// unkeyed are the fields unkeyed composite literals set (computed
	// when first needed).
	unkeyedOnce sync.Once
	unkeyed     map[*types.Var]bool
	// impls memoizes implementations, by interface method.
	implMu sync.Mutex
	impls  map[*types.Func][]*types.Func
	// schedules are the range values over a schedule of delays
	// (scheduleOf), indexed when first needed.
	schedOnce sync.Once
	schedules map[*types.Var]ast.Expr
	// results memoizes resultBodies, by call and result index; the
	// analyzers built on this layer may ask at once.
	resultsMu sync.Mutex
	results   map[resultKey][]ast.Node
}

// resultKey is a call and the index of one of its results.
type resultKey struct {
	call *ast.CallExpr
	i    int
}

func run(pass *analysis.Pass) (any, error) {
	m := &Result{
		pass:        pass,
		vals:        pass.ResultOf[provenance.Analyzer].(*provenance.Values),
		WaitFuncs:   map[*types.Func]bool{},
		PureWaits:   map[*types.Func]bool{},
		WaitMethods: map[*types.Func]bool{},
		randomFuncs: map[*types.Func]bool{},
		ctxChecks:   map[*types.Func]int{},
		capFuncs:    map[*types.Func]*CapFact{},
	}
	if analysisutil.IsStd(pass.Pkg.Path()) {
		// The model treats the standard library as opaque.
		return m, nil
	}
	m.WaitFuncs = m.findDelayFuncs()
	m.WaitMethods = m.findWaitMethods()
	for fn := range m.findDispatchers() {
		m.WaitMethods[fn] = true
	}
	for fn := range m.findLoopWaits() {
		m.WaitMethods[fn] = true
	}
	m.findRandomFuncs()
	m.findFreshIDs()
	m.findJitterWaits()
	m.findFixedWaits()
	m.findBlindWaits()
	m.findTimeoutParams()
	m.findTerminalWaits()
	m.exportWaitFacts()
	m.findCtxChecks()
	m.findCapFuncs()
	m.findMakers()
	m.exportDelayFacts()
	return m, nil
}

// Calls says which calls wait, for the interpreter of one package: Funcs
// and Pure are the package's functions that wait (Result.WaitFuncs,
// PureWaits), Import gives another package's WaitFact.
type Calls struct {
	Info  *types.Info
	Funcs map[*types.Func]bool
	Pure  map[*types.Func]bool
	// Import returns the WaitFact of a function of another package.
	Import func(*types.Func) *WaitFact
	// Methods are the interface methods that may wait
	// (Result.WaitMethods); ImportMay, when set, reports whether an
	// interface method of another package may (MayWaitFact).
	Methods   map[*types.Func]bool
	ImportMay func(*types.Func) bool
	// Certain leaves out the calls that only may wait (a function value
	// given a duration): a function's WaitFact needs a wait that
	// happens, not one that might.
	Certain bool
	// Pkg is the package analyzed: its own unexported error fields carry
	// outcomes too (ErrorField); nil: exported ones only.
	Pkg *types.Package
	// Closure, when set, reports whether a call runs a closure held in a
	// local variable whose body waits (the model's waitingClosure).
	Closure func(*ast.CallExpr) bool
}

// Results returns the types of the results of call.
func Results(info *types.Info, call *ast.CallExpr) []types.Type {
	tv, ok := info.Types[call]
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

// IsOp reports whether call is a fallible operation: it returns an error
// (or an *http.Response, or only a result that carries its outcome in an
// error field: ErrorField), is not an error constructor or wrapper, not a
// wait, and not one of the accessors whose error is not an outcome
// (Close, Err).
func (in Calls) IsOp(call *ast.CallExpr) bool {
	res := Results(in.Info, call)
	if len(res) == 0 {
		return false
	}
	fallible := analysisutil.IsErrorType(res[len(res)-1])
	if len(res) == 1 && ErrorField(in.Pkg, res[0]) != nil {
		fallible = true // its outcome in a field of the result (res.Err)
	}
	for _, r := range res {
		if analysisutil.IsNamedType(r, "net/http", "Response") {
			fallible = true
		}
	}
	if !fallible {
		return false
	}
	if tv, ok := in.Info.Types[call.Fun]; ok && tv.IsType() {
		return false // conversion
	}
	if in.IsPureWait(call) {
		return false // a wait (retry.Sleep returns the context's error)
	}
	for _, a := range call.Args {
		if tv, ok := in.Info.Types[a]; ok && analysisutil.IsErrorType(tv.Type) && len(res) == 1 {
			// A wrapper: an operation only if it wraps one
			// (errors.Join(a(), b()), fmt.Errorf("...: %w", op())).
			for _, b := range call.Args {
				if c, ok := analysisutil.Unparen(b).(*ast.CallExpr); ok && in.IsOp(c) {
					return true
				}
			}
			return false
		}
	}
	if fn := analysisutil.Callee(in.Info, call); fn != nil {
		if catalog.ProtocolMethod(catalog.NotOperation, fn.Name()) {
			return false // Close, Err, Unwrap, Wait: no downstream call's outcome
		}
		switch analysisutil.PkgPath(fn) {
		case "errors", "fmt", "log", "log/slog":
			return false
		}
	}
	return true
}

// ErrorField returns the field of error type through which a result of
// type t carries the outcome of the call that returned it (`res :=
// do(ctx); if res.Err != nil`): t is a struct, or a pointer to one, that
// is no error itself and has exactly one direct field of type error,
// exported or of pkg. Nil otherwise.
func ErrorField(pkg *types.Package, t types.Type) *types.Var {
	if types.Implements(t, errorIface) {
		return nil
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
		if types.Implements(t, errorIface) {
			return nil
		}
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var field *types.Var
	for i := range st.NumFields() {
		f := st.Field(i)
		if f.Embedded() || !analysisutil.IsErrorType(f.Type()) || !f.Exported() && (pkg == nil || f.Pkg() != pkg) {
			continue
		}
		if field != nil {
			return nil // two errors: which is the outcome is not known
		}
		field = f
	}
	return field
}

var errorIface = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
