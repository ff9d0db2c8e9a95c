package libconfig

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// Analyzer is the library-configuration layer. It reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:       "resillibconfig",
	Doc:        "read how library retries configure their delays, jitter and bounds (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Requires:   []*analysis.Analyzer{inspect.Analyzer, model.Analyzer, provenance.Analyzer, waits.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// Result lists the settings of the package's library retries, in the
// order of the retries, each retry's in the order its configuration is
// read.
type Result struct {
	Settings []*Setting
}

// Knob is what part of a retry's configuration a Setting is about.
type Knob int

const (
	// Delay: which delay the retry waits — a constructor
	// (NewConstantBackOff), a delay function (retry.FixedDelay), a
	// client's Backoff, the library's own. Val is its catalog row, whose
	// Jitter says whether it is random.
	Delay Knob = iota + 1
	// Jitter: how much jitter a delay gets — RandomizationFactor,
	// wait.Backoff's Jitter, runtime/retry's Policy.Jitter.
	Jitter
	// Elapsed: the time bound of a cenkalti/backoff retry —
	// MaxElapsedTime, WithMaxElapsedTime, or a backoff (constant, zero)
	// that has none of its own.
	Elapsed
	// Attempts: an option that sets the attempt bound (Attempts(n),
	// UntilSucceeded()).
	Attempts
)

// Form is how the code makes a setting.
type Form int

const (
	Call     Form = iota + 1 // a catalogued call (a constructor, an option); Node is the call
	Value                    // a catalogued function or constant given as a value (DelayType's argument)
	Literal                  // a composite literal of a catalogued type (ZeroBackOff{})
	Field                    // a keyed field of the literal Lit; Value is its value
	Write                    // a write `x.F = v`; Value is v, Pos where the write starts
	Absent                   // not set: Field left out of the literal Lit, or (Lit nil) never written after Node made the value; Val is the default when the catalog has one
	Implicit                 // fixed by the retry call itself (retry.Constant, retryablehttp.Get's default client)
)

// Setting is one thing a library retry's configuration says, and where.
type Setting struct {
	Retry *model.Retry // the retry it configures
	Knob  Knob
	Form  Form
	// Row is the catalogued field or option that is set (nil for a value
	// alone, or a field the catalog has no row for); Field is the field's
	// name for Field, Write and Absent.
	Row   *catalog.Row
	Field string
	// Val is the catalog row of the value: the constructor, delay
	// function or constant; for Absent and Implicit the default the
	// library uses.
	Val *catalog.Row
	// Zero says the value set is the constant 0 (for Call, the option's
	// argument).
	Zero bool
	// Node is the call, literal or value that makes the setting; Pos and
	// End its range (for Write, from the start of the write to the end of
	// the value). Value is the value expression (Field, Write, Value; a
	// Call option's argument); Lit the literal of Field, Absent and
	// Literal.
	Node     ast.Node
	Pos, End token.Pos
	Value    ast.Expr
	Lit      *ast.CompositeLit
	// Qual is the name the library's package is written with in the
	// setting's expression (the X of pkg.Name), "" when it is not
	// written so.
	Qual string
	// AttemptBound: an attempt bound is configured too (cenkalti/backoff
	// v4's WithMaxRetries around the value; for v5's WithMaxElapsedTime
	// option, WithMaxTries among the same options). ContextBound: the
	// value is wrapped in v4's WithContext. Jittered: a sethvargo/go-retry
	// jitter wrapper is around the value.
	AttemptBound, ContextBound, Jittered bool
	// Unless, for Absent: the value a write of Field that is made only
	// when it is not nil would set (`if cfg.Backoff != nil { c.Backoff =
	// cfg.Backoff }`): the default holds when it is nil.
	Unless ast.Expr
	// Via, for a field set to a function of the package (Field,
	// Write): the function returns Val's delay on some path (a fallback
	// to the library's default) and draws nothing random itself.
	Via *types.Func
	// Own, for a Delay field set to a function that computes the delay
	// itself (a function literal, a function of the package) with no
	// random part in any of its returns: that function (an
	// *ast.FuncLit or *ast.FuncDecl); Val is nil.
	Own ast.Node
}

type reader struct {
	pass  *analysis.Pass
	vals  *provenance.Values
	model *model.Result
	r     *model.Retry
	out   *[]*Setting
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	out := &Result{}
	for _, r := range res.Retries {
		call, ok := r.Node.(*ast.CallExpr)
		if !ok || r.Row == nil || (r.Kind != model.LibraryRetry && r.Kind != model.ClientRetry) {
			continue
		}
		rd := &reader{pass: pass, vals: pass.ResultOf[provenance.Analyzer].(*provenance.Values), model: res, r: r, out: &out.Settings}
		rd.retry(call)
	}
	rd := &reader{pass: pass, vals: pass.ResultOf[provenance.Analyzer].(*provenance.Values), model: res, out: &out.Settings}
	rd.interceptors()
	rd.reconnects()
	return out, nil
}

func (rd *reader) add(s *Setting) {
	s.Retry = rd.r
	if s.Pos == token.NoPos && s.Node != nil {
		s.Pos, s.End = s.Node.Pos(), s.Node.End()
	}
	*rd.out = append(*rd.out, s)
}

// retry reads the configuration of the library retry call.
func (rd *reader) retry(call *ast.CallExpr) {
	row := rd.r.Row
	path := row.Path
	if catalog.ClassicCenkalti(path) {
		path = catalog.CenkaltiV4
	}
	switch path {
	case catalog.CenkaltiV4:
		if row.BoundArg >= 0 && row.BoundArg < len(call.Args) {
			rd.cenkalti(call.Args[row.BoundArg], false, rd.stopsOnCancel(call, row), row.Path, 0)
		}
	case catalog.CenkaltiV5:
		var elapsed0 *ast.CallExpr
		var elapsedRow *catalog.Row
		maxTries := false
		for _, opt := range rd.variadic(call, row.BoundArg) {
			for _, o := range rd.vals.Trace(opt) {
				c, fn := rd.callOf(o.Expr)
				orow := catalogRow(fn)
				switch {
				case orow == nil:
				case orow.Name == "WithBackOff" && len(c.Args) == 1:
					rd.cenkalti(c.Args[0], false, false, catalog.CenkaltiV5, 0) // v5: bounds are options of Retry
				case orow.Name == "WithMaxTries":
					maxTries = true
				case orow.Name == "WithMaxElapsedTime" && len(c.Args) == 1 && rd.isZero(c.Args[0]):
					elapsed0, elapsedRow = c, orow
				}
			}
		}
		if elapsed0 != nil {
			rd.add(&Setting{Knob: Elapsed, Form: Call, Row: elapsedRow, Zero: true, Node: elapsed0, Value: elapsed0.Args[0], AttemptBound: maxTries})
		}
	case catalog.RetryGo:
		for _, opt := range rd.variadic(call, row.BoundArg) {
			for _, o := range rd.vals.Trace(opt) {
				c, fn := rd.callOf(o.Expr)
				orow := catalogRow(fn)
				if orow == nil {
					continue
				}
				switch orow.Role {
				case catalog.Wrapper: // DelayType(f)
					if len(c.Args) == 1 {
						rd.delayValue(orow, c.Args[0])
					}
				case catalog.AttemptOption:
					if len(c.Args) == 1 {
						rd.add(&Setting{Knob: Attempts, Form: Call, Row: orow, Zero: rd.isZero(c.Args[0]), Node: c, Value: c.Args[0]})
					}
				case catalog.Unbounded:
					rd.add(&Setting{Knob: Attempts, Form: Call, Row: orow, Node: c})
				}
			}
		}
	case catalog.SethRetry:
		if row.Jitter != 0 {
			// retry.Constant(ctx, d, f): the call waits a delay of its own.
			rd.add(&Setting{Knob: Delay, Form: Implicit, Val: row, Node: call.Fun})
			return
		}
		if row.BoundArg >= 0 && row.BoundArg < len(call.Args) {
			rd.sethBackoff(call.Args[row.BoundArg], false, 0)
		}
	case catalog.RetryableHTTP, catalog.NetHTTP:
		rd.retryableClient(call)
	case catalog.ResilintRetry:
		if row.BoundArg >= 0 && row.BoundArg < len(call.Args) {
			rd.resilintPolicy(call.Args[row.BoundArg])
		}
	case catalog.K8sRetry:
		if row.BoundArg >= 0 && row.BoundArg < len(call.Args) {
			rd.jitterField(call.Args[row.BoundArg])
		}
	}
}

// variadic returns the options of call from index from on, those of a
// slice literal spread into it (`opts...`) included; none when that
// slice is not known.
func (rd *reader) variadic(call *ast.CallExpr, from int) []ast.Expr {
	args, _ := rd.vals.Spread(call, from)
	return args
}

func (rd *reader) callOf(e ast.Expr) (*ast.CallExpr, *types.Func) {
	c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	return c, analysisutil.Callee(rd.pass.TypesInfo, c)
}

func (rd *reader) isZero(e ast.Expr) bool {
	tv := rd.pass.TypesInfo.Types[e]
	if tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	}
	return false
}

func catalogRow(fn *types.Func) *catalog.Row {
	if fn == nil {
		return nil
	}
	return catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
}

// objRow returns the catalog row of the function, variable or constant e
// names (retry.FixedDelay, retryablehttp.DefaultBackoff, retry.JitterNone).
func (rd *reader) objRow(e ast.Expr) *catalog.Row {
	var obj types.Object
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		obj = rd.pass.TypesInfo.Uses[x]
	case *ast.SelectorExpr:
		obj = rd.pass.TypesInfo.Uses[x.Sel]
	}
	if obj == nil {
		return nil
	}
	if fn, ok := obj.(*types.Func); ok {
		return catalogRow(fn)
	}
	return catalog.Lookup(analysisutil.PkgPath(obj), "", obj.Name())
}

// structRows returns the rows of role for the fields of the struct type t.
func structRows(t types.Type, role catalog.Role) []*catalog.Row {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	obj := n.Origin().Obj()
	var out []*catalog.Row
	for i := range catalog.Rows {
		r := &catalog.Rows[i]
		if r.Role == role && r.Recv == obj.Name() && r.Path == analysisutil.PkgPath(obj) {
			out = append(out, r)
		}
	}
	return out
}

// qualifier returns the name by which the expression's package is written
// at e (the X of a selector), or "".
func qualifier(e ast.Expr) string {
	if sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	if c, ok := analysisutil.Unparen(e).(*ast.CallExpr); ok {
		return qualifier(c.Fun)
	}
	if idx, ok := analysisutil.Unparen(e).(*ast.IndexExpr); ok {
		return qualifier(idx.X)
	}
	return ""
}
