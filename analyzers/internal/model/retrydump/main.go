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
		res := pass.ResultOf[model.Analyzer].(*model.Result)
		for _, r := range res.Retries {
			pass.Reportf(r.Pos, "%s (%s), up to %d calls, %d inner; time-bounded %v, count-bounded %v, identified %v, immediate %v, select break %v, client errors %v, immediate identified %v, specific %v", r.Describe(), model.AttemptsText(r.Attempts), r.Amp, len(r.Inner), r.TimeBounded, r.CountBounded, r.Identified, r.Immediate, r.SelectBreak != nil, r.ClientErrors, r.ImmediateIdentified, r.Specific)
		}
		for _, r := range res.Resumes {
			pass.Reportf(r.Pos, "resume loop, %d waits", len(r.Delays))
		}
		return nil, nil
	},
}

func main() { singlechecker.Main(analyzer) }
