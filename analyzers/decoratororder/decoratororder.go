package decoratororder

import (
	_ "embed"
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model"
)

//go:embed doc.go
var doc string

// Analyzer reports retries outside circuit breakers.
var Analyzer = &analysis.Analyzer{
	Name:     "decoratororder",
	Doc:      analysisutil.MustExtractDoc(doc, "decoratororder"),
	URL:      "https://github.com/resilint/resilint/blob/main/docs/checks/decoratororder.md",
	Requires: []*analysis.Analyzer{model.Analyzer},
	Run:      run,
}

var strict bool

func init() {
	Analyzer.Flags.BoolVar(&strict, "strict", false, "also report a retry outside a breaker that stops at once on the breaker's open error")
}

const maxRelated = 8

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	for _, r := range res.Retries {
		if len(r.Breakers) == 0 && r.Order == nil {
			continue
		}
		switch {
		case r.RetriesOpen:
			report(pass, r, "retries-open", fmt.Sprintf("%s explicitly retries the circuit breaker's open error: every attempt against an open breaker fails at once and only adds delay and load; stop retrying on it (return it or mark it permanent)", r.Describe()), nil)
		case r.StopsOnOpen && !strict:
			// The acceptable form of retry-outside.
		case r.Order != nil:
			report(pass, r, "failsafe-order", "retry policy listed before the circuit breaker: failsafe-go composes policies outermost first, so the retry runs outside the breaker; an open breaker fails every attempt at once and each request's failed attempts count several times towards opening it", r.Order.Fix)
		default:
			msg := fmt.Sprintf("retry outside a circuit breaker: %s (%s) retries calls that go through %s: an open breaker fails every attempt at once, and each request's failed attempts count several times towards opening it; put the breaker outside the retry", r.Describe(), model.AttemptsText(r.Attempts), r.Breakers[0].Describe(pass.Fset, pass.Pkg))
			if r.StopsOnOpen {
				msg += " (this retry stops on the open error; reported because of -decoratororder.strict)"
			} else {
				msg += ", or stop retrying on the breaker's open error"
			}
			report(pass, r, "retry-outside-breaker", msg, r.BreakerFix)
		}
	}
	return nil, nil
}

func report(pass *analysis.Pass, r *model.Retry, category, msg string, fix *model.Fix) {
	var related []analysis.RelatedInformation
	for i, b := range r.Breakers {
		if i == maxRelated {
			break
		}
		related = append(related, analysis.RelatedInformation{Pos: b.Pos, Message: "circuit breaker: " + b.Describe(pass.Fset, pass.Pkg)})
	}
	d := analysis.Diagnostic{Pos: r.Pos, End: r.End, Category: category, Message: msg, Related: related}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{{Message: fix.Message, TextEdits: fix.Edits}}
	}
	pass.Report(d)
}
