package ratelimit_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/resilint/resilint/analyzers/internal/model/httpstatus"
	"github.com/resilint/resilint/analyzers/internal/model/rediscmd"
	"github.com/resilint/resilint/analyzers/internal/model/respread"
)

// TestNoPanicOnRealCode runs the check's own model layers, with facts,
// over real code that uses what they recognize: go-redis itself (every
// command, scripts, transactions, pipelines) and net/http (handlers,
// headers, statuses). A panic or an error on well-typed code is a bug.
// (The shared retry model, which the check also reads, has its own test.)
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
	graph, err := checker.Analyze([]*analysis.Analyzer{rediscmd.Analyzer, httpstatus.Analyzer, respread.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, cmds := 0, 0
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		if r, ok := act.Result.(*rediscmd.Result); ok {
			for _, f := range r.Funcs {
				cmds += len(f.Cmds)
			}
			cmds += len(r.Scripts)
		}
		n++
	}
	if cmds == 0 {
		t.Error("no Redis commands or scripts recognized in go-redis itself: the test does not exercise the layer")
	}
	t.Logf("%d actions, %d commands and scripts", n, cmds)
}
