package golangci

import (
	"go/token"
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

// Related locations are folded into the message: golangci-lint would make
// each one a separate issue.
func TestFoldRelated(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("/src/shop/checkout.go", -1, 100)
	f.SetLines([]int{0, 10, 20, 30})
	a := &analysis.Analyzer{
		Name: "related",
		Doc:  "reports one diagnostic with two related locations",
		Run: func(pass *analysis.Pass) (any, error) {
			pass.Report(analysis.Diagnostic{Pos: f.Pos(12), Message: "nested retry", Related: []analysis.RelatedInformation{
				{Pos: f.Pos(23), Message: "inner retry: (*Client).Charge"},
				{Pos: f.Pos(0), Message: "outer deadline: 3s"},
			}})
			return nil, nil
		},
	}
	var got []analysis.Diagnostic
	pass := &analysis.Pass{Fset: fset, Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	if _, err := oneFix(a).Run(pass); err != nil {
		t.Fatal(err)
	}
	want := "nested retry [related: checkout.go:3:4: inner retry: (*Client).Charge; checkout.go:1:1: outer deadline: 3s]"
	if len(got) != 1 || got[0].Message != want || got[0].Related != nil {
		t.Errorf("got %+v, want one diagnostic %q without related locations", got, want)
	}
}
