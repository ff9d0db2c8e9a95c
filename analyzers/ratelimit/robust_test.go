package ratelimit_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/resilint/resilint/analyzers/ratelimit"
)

// TestNoPanicOnRealCode runs the check and its model layers, with facts,
// over real code that uses what they recognize: go-redis itself (every
// command, scripts, transactions, pipelines) and net/http (handlers,
// headers, statuses). A panic or an error on well-typed code is a bug.
func TestNoPanicOnRealCode(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages from source")
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax}
	pkgs, err := packages.Load(cfg, "github.com/redis/go-redis/v9", "net/http/httputil")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("packages do not load")
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{ratelimit.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		n++
	}
	t.Logf("%d actions", n)
}
