package admission_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model/admission"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

// The facts of admitting functions, asserted by their String, in this
// package and across packages.
func TestFacts(t *testing.T) {
	analysistest.Run(t, testutil.TestData(), admission.Analyzer, "modellayers/admission/admit", "modellayers/admission")
}
