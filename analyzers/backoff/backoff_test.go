package backoff_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/backoff"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.TestData(), backoff.Analyzer, "backoff/...")
}
