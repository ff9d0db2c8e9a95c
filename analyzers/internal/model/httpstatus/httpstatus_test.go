package httpstatus_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model/httpstatus"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

// The facts of httpstatus helpers, asserted by their String.
func TestFacts(t *testing.T) {
	analysistest.Run(t, testutil.TestData(), httpstatus.Analyzer, "modellayers/httpstatus")
}
