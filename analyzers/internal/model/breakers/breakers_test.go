package breakers_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model/breakers"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

// TestBreakers states, for each retry of the fixture that reaches a
// breaker or orders failsafe-go policies, the function it is in, how
// many breaker calls it reaches and what it does with the open error.
// The fixture's `want` comments assert the BreakerFacts.
func TestBreakers(t *testing.T) {
	results := analysistest.Run(t, testutil.TestData(), breakers.Analyzer, "breakers/a")
	if len(results) != 1 {
		t.Fatalf("%d results", len(results))
	}
	pass := results[0].Pass
	res := results[0].Result.(*breakers.Result)
	var got []string
	for _, rb := range res.Retries {
		line := fmt.Sprintf("%s breakers=%d", enclosing(pass.Files, rb.Retry.Pos), len(rb.Breakers))
		if rb.StopsOnOpen {
			line += " stops-on-open"
		}
		if rb.RetriesOpen {
			line += " retries-open"
		}
		if rb.Order != nil {
			line += " order"
		}
		got = append(got, line)
	}
	want := []string{
		"outside breakers=1",
		"stops breakers=1 stops-on-open",
		"retriesIt breakers=1 retries-open",
		"order breakers=0 order",
		"abortsOnOpen breakers=1 stops-on-open",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("retries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// enclosing names the function declaration that contains pos.
func enclosing(files []*ast.File, pos token.Pos) string {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
				return fd.Name.Name
			}
		}
	}
	return "?"
}
