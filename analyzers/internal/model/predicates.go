package model

import (
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// NeverTrueFact is exported for every function whose first result is a
// bool and whose every return gives false there: the constant false (a
// named constant included), or the results of a call of another such
// function. Given as a client's
// retry predicate (a PredicateField row: go-retryablehttp's CheckRetry)
// it says never to try again, so the client makes one attempt.
type NeverTrueFact struct{}

func (*NeverTrueFact) AFact() {}

func (*NeverTrueFact) String() string { return "never true" }

// findNeverTrue computes the package's never-true functions and exports
// their facts.
func (m *builder) findNeverTrue() {
	m.neverTrueFuncs = map[*types.Func]bool{}
	m.funcsWhere(m.neverTrueFuncs, func(fn *types.Func, d *ast.FuncDecl) bool {
		return m.returnsOnlyFalse(fn.Type().(*types.Signature), d.Body)
	}, func() analysis.Fact { return &NeverTrueFact{} })
}

// neverTrue reports whether fn, of this package or another (by its fact),
// is a never-true function.
func (m *builder) neverTrue(fn *types.Func) bool {
	return m.funcHas(fn, m.neverTrueFuncs, new(NeverTrueFact))
}

// funcsWhere adds to out the package's functions (with bodies) of which
// holds is true, in rounds, so that one may rest on another found in an
// earlier round (a function that returns another's results: holds reads
// out as it fills), and exports a fact made by fact for each.
func (m *builder) funcsWhere(out map[*types.Func]bool, holds func(*types.Func, *ast.FuncDecl) bool, fact func() analysis.Fact) {
	for round := 0; round < 8; round++ {
		changed := false
		for fn, d := range m.vals.Decls {
			if !out[fn] && d.Body != nil && holds(fn, d) {
				out[fn] = true
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for fn := range out {
		m.pass.ExportObjectFact(fn, fact())
	}
}

// funcHas reports whether fn is among own, the package's functions found
// by funcsWhere, or, of another package, carries a fact of fact's type.
func (m *builder) funcHas(fn *types.Func, own map[*types.Func]bool, fact analysis.Fact) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		return own[fn]
	}
	return m.pass.ImportObjectFact(fn, fact)
}

// returnsOnlyFalse reports whether a function of signature sig with body
// body has a bool first result and returns, each time it returns, false
// there. Returns of closures inside it are theirs, not its. A bare return
// (named results) is not followed.
func (m *builder) returnsOnlyFalse(sig *types.Signature, body *ast.BlockStmt) bool {
	if sig.Results().Len() == 0 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return false
	}
	ok, saw := true, false
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			saw = true
			ok = m.firstFalse(x, sig.Results().Len())
		}
		return true
	})
	return ok && saw
}

// firstFalse reports whether the return statement gives false as its
// first result (of n results).
func (m *builder) firstFalse(ret *ast.ReturnStmt, n int) bool {
	if len(ret.Results) == 0 {
		return false
	}
	if len(ret.Results) == 1 && n > 1 {
		// return f(...): the results of a call.
		call, ok := analysisutil.Unparen(ret.Results[0]).(*ast.CallExpr)
		return ok && m.neverTrue(analysisutil.Callee(m.pass.TypesInfo, call))
	}
	return m.constFalse(ret.Results[0])
}

// constFalse reports whether e is the constant false (a constant
// expression: `false`, a named constant), or a call of a never-true
// function with one result. A package variable is no constant here: it
// may be written anywhere.
func (m *builder) constFalse(e ast.Expr) bool {
	if call, ok := analysisutil.Unparen(e).(*ast.CallExpr); ok {
		if fn := analysisutil.Callee(m.pass.TypesInfo, call); fn != nil && fn.Type().(*types.Signature).Results().Len() == 1 {
			return m.neverTrue(fn)
		}
		return false
	}
	tv, ok := m.pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}

// neverRetries reports whether the value made at o, of type t, has a
// retry predicate (a PredicateField row of t) that never returns true:
// the last write of the field on the variables the value passed through,
// or else the field of the literal that made it. A field left out is the
// library's default predicate, which retries.
func (m *builder) neverRetries(t types.Type, o provenance.Origin) bool {
	for _, row := range structRows(t, catalog.PredicateField) {
		var v ast.Expr
		if w := m.lastWrite(o.Via, row.Name); w != nil {
			v = w.Value
		} else if lit, ok := analysisutil.Unparen(o.Expr).(*ast.CompositeLit); ok {
			v, _ = litField(lit, row.Name)
		}
		if v != nil && m.predicateNeverTrue(v, 0) {
			return true
		}
	}
	return false
}

// predicateNeverTrue reports whether every value e may hold is a function
// that never returns true: a function literal, a function or method of
// this package or (by its fact) another, or a conversion of one to the
// predicate's named type. Anything else (a parameter, nil, a call's
// result) may return true.
func (m *builder) predicateNeverTrue(e ast.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	info := m.pass.TypesInfo
	origins := m.vals.Trace(e)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		switch x := analysisutil.Unparen(o.Expr).(type) {
		case *ast.FuncLit:
			sig, ok := info.TypeOf(x).(*types.Signature)
			if !ok || !m.returnsOnlyFalse(sig, x.Body) {
				return false
			}
		case *ast.CallExpr:
			// retryablehttp.CheckRetry(noRetry): a conversion.
			if tv, ok := info.Types[x.Fun]; !ok || !tv.IsType() || len(x.Args) != 1 || !m.predicateNeverTrue(x.Args[0], depth+1) {
				return false
			}
		default:
			fn, ok := funcOfExpr(info, x)
			if !ok || !m.neverTrue(fn) {
				return false
			}
		}
	}
	return true
}

// predicateOption reports whether the option e is a PredicateOption
// (retry-go's RetryIf), and whether every value it may hold is one given
// a predicate that never returns true.
func (m *builder) predicateOption(e ast.Expr) (never, ok bool) {
	origins := m.vals.Trace(e)
	if len(origins) == 0 {
		return false, false
	}
	never = true
	for _, o := range origins {
		call, isCall := analysisutil.Unparen(o.Expr).(*ast.CallExpr)
		if !isCall {
			return false, false
		}
		fn := analysisutil.Callee(m.pass.TypesInfo, call)
		if fn == nil {
			return false, false
		}
		row := catalogRow(fn)
		if row == nil || row.Role != catalog.PredicateOption {
			return false, false
		}
		if row.ValueArg >= len(call.Args) || !m.predicateNeverTrue(call.Args[row.ValueArg], 0) {
			never = false
		}
	}
	return never, true
}
