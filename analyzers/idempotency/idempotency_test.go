package idempotency_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/idempotency"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.TestData(), idempotency.Analyzer, "idempotency/...")
}

func TestHeaderFlag(t *testing.T) {
	for _, bad := range []string{"", " , ", "Idempotency Key", "Key:1"} {
		if err := idempotency.Analyzer.Flags.Set("header", bad); err == nil {
			t.Errorf("-idempotency.header=%q: no error", bad)
		}
	}
	if err := idempotency.Analyzer.Flags.Set("header", "X-Request-Id, Idempotency-Key"); err != nil {
		t.Fatal(err)
	}
	if got := idempotency.Analyzer.Flags.Lookup("header").Value.String(); got != "X-Request-Id, Idempotency-Key" {
		t.Errorf("header = %q", got)
	}
	idempotency.Analyzer.Flags.Set("header", "Idempotency-Key,X-Idempotency-Key")
}
