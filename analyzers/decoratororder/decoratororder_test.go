package decoratororder_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/decoratororder"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.TestData(), decoratororder.Analyzer, "decoratororder/...")
}

func TestStrict(t *testing.T) {
	if err := decoratororder.Analyzer.Flags.Set("strict", "true"); err != nil {
		t.Fatal(err)
	}
	defer decoratororder.Analyzer.Flags.Set("strict", "false")
	analysistest.Run(t, testutil.TestData(), decoratororder.Analyzer, "decoratororder_strict")
}
