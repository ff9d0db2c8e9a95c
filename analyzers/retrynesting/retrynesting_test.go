package retrynesting_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/testutil"
	"github.com/resilint/resilint/analyzers/retrynesting"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.TestData(), retrynesting.Analyzer, "retrynesting/...")
}

// With the mesh's routes (resilint -mesh), a retry whose requests go to a
// host the mesh retries counts the mesh's attempts; hosts the mesh does
// not know, or the model cannot read, say nothing.
func TestMesh(t *testing.T) {
	const table = `[
		{"host": "shipping.shop.svc.cluster.local", "tries": 3, "default": true, "policy": "2 retries on connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes(503)", "where": "mesh/shipping.yaml:1"},
		{"host": "tracking.shop.svc.cluster.local", "tries": 4, "policy": "3 retries on 5xx", "where": "mesh/tracking.yaml:12"},
		{"host": "ledger.shop.svc.cluster.local", "tries": 1, "policy": "no retries", "where": "mesh/ledger.yaml:3"}
	]`
	if err := retrynesting.Analyzer.Flags.Set("mesh", table); err != nil {
		t.Fatal(err)
	}
	defer retrynesting.Analyzer.Flags.Set("mesh", "")
	analysistest.Run(t, testutil.TestData(), retrynesting.Analyzer, "retrynesting_mesh/...")
}
