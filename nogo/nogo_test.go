package nogo_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers"
	"github.com/resilint/resilint/nogo/backoff"
	"github.com/resilint/resilint/nogo/decoratororder"
	"github.com/resilint/resilint/nogo/idempotency"
	"github.com/resilint/resilint/nogo/ignorecheck"
	"github.com/resilint/resilint/nogo/ratelimit"
	"github.com/resilint/resilint/nogo/retrynesting"
	"github.com/resilint/resilint/nogo/timeoutchain"
)

// Every analyzer of the suite has its nogo package, exporting exactly the
// suite's value. A new check needs a package nogo/<name> and a line here.
func TestEverySuiteAnalyzerHasAPackage(t *testing.T) {
	exported := map[string]*analysis.Analyzer{
		"retrynesting":   retrynesting.Analyzer,
		"decoratororder": decoratororder.Analyzer,
		"idempotency":    idempotency.Analyzer,
		"timeoutchain":   timeoutchain.Analyzer,
		"backoff":        backoff.Analyzer,
		"ratelimit":      ratelimit.Analyzer,
		"ignorecheck":    ignorecheck.Analyzer,
	}
	for _, a := range analyzers.All() {
		got, ok := exported[a.Name]
		if !ok {
			t.Errorf("no package nogo/%s for the suite's analyzer %s", a.Name, a.Name)
			continue
		}
		if got != a {
			t.Errorf("nogo/%s.Analyzer is not the suite's %s", a.Name, a.Name)
		}
		delete(exported, a.Name)
	}
	for name := range exported {
		t.Errorf("nogo/%s exports an analyzer the suite does not have", name)
	}
	if err := analysis.Validate(analyzers.All()); err != nil {
		t.Error(err)
	}
}
