package model_test

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model"
)

// TestDump prints the retries the model finds in the packages named by
// $RESILINT_DUMP (a directory of a GOPATH-style tree, then patterns), for
// investigating a verdict: RESILINT_DUMP=/path/to/gopath:pkg go test -run Dump -v
func TestDump(t *testing.T) {
	spec := os.Getenv("RESILINT_DUMP")
	if spec == "" {
		t.Skip("RESILINT_DUMP not set")
	}
	var dir, pat string
	fmt.Sscanf(spec, "%s", &dir)
	for i := len(spec) - 1; i >= 0; i-- {
		if spec[i] == ':' {
			dir, pat = spec[:i], spec[i+1:]
			break
		}
	}
	dumper := &analysis.Analyzer{
		Name:     "dump",
		Doc:      "dump",
		Requires: []*analysis.Analyzer{model.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			for _, r := range pass.ResultOf[model.Analyzer].(*model.Result).Retries {
				fmt.Printf("%s: %s (%s), amp %d, %d inner\n", pass.Fset.Position(r.Pos), r.Describe(), model.AttemptsText(r.Attempts), r.Amp, len(r.Inner))
			}
			return nil, nil
		},
	}
	analysistest.Run(nopT{t}, dir, dumper, pat)
}

type nopT struct{ *testing.T }

func (nopT) Errorf(string, ...any) {}
