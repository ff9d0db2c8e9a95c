package sends_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model/sends"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

func TestFacts(t *testing.T) {
	analysistest.Run(t, testutil.TestData(), sends.Analyzer, "sends/...")
}
