package provenance

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// Analyzer is the value provenance pass.
var Analyzer = &analysis.Analyzer{
	Name:       "resilvalues",
	Doc:        "index where the package's values are made (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	ResultType: reflect.TypeOf((*Values)(nil)),
	FactTypes:  []analysis.Fact{(*ConstFact)(nil)},
}

// ConstFact is exported for package-level integer variables whose
// initializer is constant and that nothing in their package writes, so
// that `for i := 0; i < otherpkg.MaxRetries; i++` has a bound.
type ConstFact struct {
	Value int64
}

func (*ConstFact) AFact() {}

func (f *ConstFact) String() string { return fmt.Sprintf("const(%d)", f.Value) }

func run(pass *analysis.Pass) (any, error) {
	if analysisutil.IsStd(pass.Pkg.Path()) {
		// The model treats the standard library as opaque: nothing is
		// indexed there, and no fact is exported.
		return New(pass.TypesInfo, nil), nil
	}
	v := New(pass.TypesInfo, pass.Files)
	v.pkg = pass.Pkg
	v.importFact = pass.ImportObjectFact
	v.findConsts(pass)
	return v, nil
}

// findConsts records package-level integer variables with a constant
// initializer that the package never writes again, and exports their
// ConstFact.
func (v *Values) findConsts(pass *analysis.Pass) {
	info := pass.TypesInfo
	addrTaken := map[types.Object]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if obj := v.ObjOf(n.X); obj != nil {
						addrTaken[obj] = true
					}
				}
			case *ast.IncDecStmt:
				if obj := v.ObjOf(n.X); obj != nil {
					addrTaken[obj] = true
				}
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
					for _, l := range n.Lhs {
						if obj := v.ObjOf(l); obj != nil {
							addrTaken[obj] = true
						}
					}
				}
			}
			return true
		})
	}
	v.consts = map[*types.Var]int64{}
	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		pv, ok := scope.Lookup(name).(*types.Var)
		if !ok || addrTaken[pv] {
			continue
		}
		b, ok := pv.Type().Underlying().(*types.Basic)
		if !ok || b.Info()&types.IsInteger == 0 {
			continue
		}
		vals := v.Assigns[pv]
		if len(vals) != 1 || vals[0].Value == nil {
			continue
		}
		tv, ok := info.Types[vals[0].Value]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			continue
		}
		n, exact := constant.Int64Val(tv.Value)
		if !exact {
			continue
		}
		v.consts[pv] = n
		pass.ExportObjectFact(pv, &ConstFact{Value: n})
	}
}

// Const returns the constant value of a package-level variable, of this
// package or (through its ConstFact) another.
func (v *Values) Const(pv *types.Var) (constant.Value, bool) {
	if pv.Pkg() == nil || pv.Parent() != pv.Pkg().Scope() {
		return nil, false
	}
	if pv.Pkg() == v.pkg {
		n, ok := v.consts[pv]
		if !ok {
			return nil, false
		}
		return constant.MakeInt64(n), true
	}
	var f ConstFact
	if v.importFact != nil && v.importFact(pv, &f) {
		return constant.MakeInt64(f.Value), true
	}
	return nil, false
}
