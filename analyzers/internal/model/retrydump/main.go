// Command retrydump is a development tool: it reports every retry the
// shared model recognizes in the named packages, with its attempt bound,
// for checking the model's precision on real code:
//
//	go run ./analyzers/internal/model/retrydump ./...
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/resilint/resilint/analyzers/internal/model"
)

var analyzer = &analysis.Analyzer{
	Name:     "retrydump",
	Doc:      "report every retry the model recognizes (development tool)",
	Requires: []*analysis.Analyzer{model.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, r := range pass.ResultOf[model.Analyzer].(*model.Result).Retries {
			pass.Reportf(r.Pos, "%s (%s), up to %d calls, %d inner", r.Describe(), model.AttemptsText(r.Attempts), r.Amp, len(r.Inner))
		}
		return nil, nil
	},
}

func main() { singlechecker.Main(analyzer) }
