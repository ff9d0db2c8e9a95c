package golangci

import (
	"testing"

	"golang.org/x/tools/go/analysis"
)

// golangci-lint gets one suggested fix per diagnostic.
func TestOneFix(t *testing.T) {
	a := &analysis.Analyzer{
		Name: "twofixes",
		Doc:  "reports one diagnostic with two fixes",
		Run: func(pass *analysis.Pass) (any, error) {
			pass.Report(analysis.Diagnostic{Message: "x", SuggestedFixes: []analysis.SuggestedFix{{Message: "first"}, {Message: "second"}}})
			pass.Report(analysis.Diagnostic{Message: "y"})
			return nil, nil
		},
	}
	var got []analysis.Diagnostic
	report := func(d analysis.Diagnostic) { got = append(got, d) }
	pass := &analysis.Pass{Report: report}
	if _, err := oneFix(a).Run(pass); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got[0].SuggestedFixes) != 1 || got[0].SuggestedFixes[0].Message != "first" || len(got[1].SuggestedFixes) != 0 {
		t.Errorf("got %+v, want the first fix of x and no fix of y", got)
	}
	if pass.Report == nil {
		t.Error("pass.Report not restored")
	}
}
