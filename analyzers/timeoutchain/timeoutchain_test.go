package timeoutchain_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/testutil"
	"github.com/resilint/resilint/analyzers/timeoutchain"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.TestData(), timeoutchain.Analyzer, "timeoutchain/...")
}

// One behaviour, one finding: the second wait of a retry that ignores the
// context is a related location of the first's finding; waits of other
// retries are not.
func TestWaitsOfOneRetryRelated(t *testing.T) {
	related := map[string]int{} // file:line of the finding -> its related waits
	for _, r := range analysistest.Run(t, testutil.TestData(), timeoutchain.Analyzer, "timeoutchain/twosleeps") {
		for _, d := range r.Diagnostics {
			if d.Category != "sleep-ignores-cancel" {
				continue
			}
			n := 0
			for _, rel := range d.Related {
				if strings.HasPrefix(rel.Message, "another wait of this retry") {
					n++
				}
			}
			p := r.Pass.Fset.Position(d.Pos)
			related[fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)] = n
		}
	}
	want := map[string]int{
		"twosleeps.go:25": 1, "twosleeps.go:45": 1, "twosleeps.go:66": 0, "twosleeps.go:75": 0, "twosleeps.go:97": 0,
		// a clock's timer raced with ctx.Done() through its C method is
		// no related wait; received alone, it is
		"clock.go:24": 0, "clock.go:46": 1,
	}
	if fmt.Sprint(related) != fmt.Sprint(want) {
		t.Errorf("findings (line: related waits) = %v, want %v", related, want)
	}
}

// An inner timeout set by a function of another module is that module's
// cap for all its callers: a caller with a shorter budget is not
// reported; the same through a package of the analyzed module is.
// (Module mode: the fixture is a module of its own, its dependency
// replaced by a directory.)
func TestInnerTimeoutAcrossModules(t *testing.T) {
	analysistest.Run(t, filepath.Join(testutil.TestData(), "modules", "innertimeout"), timeoutchain.Analyzer, "./app")
}
