package provenance_test

import (
	"go/ast"
	"go/constant"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model/provenance"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

func TestConstFacts(t *testing.T) {
	analysistest.Run(t, testutil.TestData(), provenance.Analyzer, "provenance/...")
}

// TestConstAcrossPackages checks that Values.Const answers for another
// package's variable through its ConstFact, and not for variables
// without one.
func TestConstAcrossPackages(t *testing.T) {
	got := map[string]int64{}
	probe := &analysis.Analyzer{
		Name:     "constprobe",
		Doc:      "reads Values.Const of the variables a package uses",
		Requires: []*analysis.Analyzer{provenance.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			vals := pass.ResultOf[provenance.Analyzer].(*provenance.Values)
			for _, f := range pass.Files {
				ast.Inspect(f, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok {
						if v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var); ok {
							if c, ok := vals.Const(v); ok {
								n, _ := constant.Int64Val(c)
								got[v.Name()] = n
							}
						}
					}
					return true
				})
			}
			return nil, nil
		},
	}
	analysistest.Run(t, testutil.TestData(), probe, "provenance/user")
	if len(got) != 1 || got["MaxAttempts"] != 3 {
		t.Errorf("Const across packages = %v, want map[MaxAttempts:3]", got)
	}
}
