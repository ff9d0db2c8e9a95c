package hostlocal_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model/hostlocal"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

func TestFacts(t *testing.T) {
	analysistest.Run(t, testutil.TestData(), hostlocal.Analyzer, "hostlocal/...")
}
