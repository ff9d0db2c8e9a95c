package respread_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model/respread"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

// The facts of respread helpers, asserted by their String.
func TestFacts(t *testing.T) {
	analysistest.Run(t, testutil.TestData(), respread.Analyzer, "modellayers/respread")
}
