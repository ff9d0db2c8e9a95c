package model_test

import (
	"go/ast"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model"
)

// TestMissedReductions runs the model over the corpus's reductions of
// real problems the suite once missed (internal/corpus/testdata/
// reductions/missed.go) and checks that the function of each holds a
// retry (or, for the watch, a resume loop).
func TestMissedReductions(t *testing.T) {
	found := map[string]bool{}
	collect := &analysis.Analyzer{
		Name:     "reductions",
		Doc:      "collect the functions holding retries",
		Requires: []*analysis.Analyzer{model.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[model.Analyzer].(*model.Result)
			for _, f := range pass.Files {
				if filepath.Base(pass.Fset.Position(f.Pos()).Filename) != "missed.go" {
					continue
				}
				for _, d := range f.Decls {
					fd, ok := d.(*ast.FuncDecl)
					if !ok {
						continue
					}
					for _, r := range slices.Concat(res.Retries, res.Resumes) {
						if fd.Pos() <= r.Pos && r.Pos < fd.End() {
							found[fd.Name.Name] = true
						}
					}
				}
			}
			return nil, nil
		},
	}
	dir, err := filepath.Abs("../../../internal/corpus/testdata/reductions")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, collect, ".")
	for _, fn := range []string{
		"perform",      // M1: a bool set in branches
		"find",         // M2: recursion through a closure
		"retryOnError", // M3: a configured fixed delay
		"exec",         // M4: the operation's own bool
		"writeBatch",   // M5: a package delay function
		"retryAsync",   // M6: the attempt in a goroutine
		"watch",        // M7: a watch that re-watches after a delay
		"do",           // M8: a classifier's bool after a handler
	} {
		if !found[fn] {
			t.Errorf("no retry found in %s", fn)
		}
	}
}
