package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"
)

// Analyzer is the model pass.
var Analyzer = &analysis.Analyzer{
	Name:       "resilmodel",
	Doc:        "recognize retries, their attempt bounds and what they reach (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*RetryFact)(nil), (*ConstFact)(nil), (*SendFact)(nil), (*RequestFact)(nil), (*TimeoutFact)(nil), (*RetryHelperFact)(nil), (*WaitFact)(nil), (*RandomFact)(nil), (*CtxCheckFact)(nil), (*FieldsFact)(nil)},
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
	headers     map[types.Object][]HeaderWrite
	walkingLits map[*types.Var]bool
	helpers     map[*types.Func]*RetryHelperFact
	tsummaries  *summaries[TimeoutFact]
	ssummaries  *summaries[SendFact]
	fsummaries  *summaries[FieldsFact]
	yields      map[types.Object]bool // the yield parameters of iterator functions
	// randomFields are the fields the package sets from a random draw
	// (computed when first needed).
	randomFields map[*types.Var]bool
	result       *Result
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
		ssummaries:  newSummaries[SendFact](),
		tsummaries:  newSummaries[TimeoutFact](),
		walkingLits: map[*types.Var]bool{},
		helpers:     map[*types.Func]*RetryHelperFact{},
		result:      &Result{Funcs: map[*types.Func]*RetryFact{}, SitePos: map[*types.Func]token.Pos{}},
	}
	m.result.Values = &Values{m.vals}
	m.result.b = m
	m.findConsts()
	m.delayFuncs = m.findDelayFuncs()
	m.findRandomFuncs()
	m.findCtxChecks()
	m.headers = m.headerIndex()
	m.yields = findYields(pass.TypesInfo, pass.Files)
	for _, f := range pass.Files {
		m.findRetries(f)
	}
	m.findHelpers()
	for _, f := range pass.Files {
		m.findCalls(f)
	}
	sort.Slice(m.result.Retries, func(i, j int) bool { return m.result.Retries[i].Pos < m.result.Retries[j].Pos })
	m.markImplementations()
	for _, r := range m.result.Retries {
		m.amp(r)
	}
	for _, r := range m.result.Retries {
		m.findSends(r)
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
		if f := m.sendSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.requestFact(fn, m.vals.decls[fn]); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.timeoutSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.fieldsFact(fn); f != nil {
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
