package rediscmd_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model/rediscmd"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

// The facts of Redis helpers, asserted by their String.
func TestFacts(t *testing.T) {
	analysistest.Run(t, testutil.TestData(), rediscmd.Analyzer, "modellayers/rediscmd")
}
