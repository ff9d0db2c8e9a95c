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

// A library analyzed by itself: the bodies of its catalogued retries
// (go-retry's Constant and Exponential, which call Do with a policy
// without jitter) are not reported; a retry of its own that the catalog
// does not describe is.
func TestLibraryImplementations(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), backoff.Analyzer, "github.com/sethvargo/go-retry")
}
