package ratelimit_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/testutil"
	"github.com/resilint/resilint/analyzers/ratelimit"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.TestData(), ratelimit.Analyzer, "ratelimit/...")
}
