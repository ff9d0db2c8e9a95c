package suppress_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers"
	"github.com/resilint/resilint/analyzers/backoff"
	"github.com/resilint/resilint/analyzers/internal/suppress"
	"github.com/resilint/resilint/analyzers/retrynesting"
)

// checks are the packages' own analyzers the tests compare against.
var checks = []*analysis.Analyzer{retrynesting.Analyzer, backoff.Analyzer}

func lookup(t *testing.T, name string) *analysis.Analyzer {
	t.Helper()
	a := analyzers.Lookup(name)
	if a == nil {
		t.Fatalf("no analyzer %q in the suite", name)
	}
	return a
}

// Directives on the line or the line above silence the named check only;
// malformed ones silence nothing.
func TestSilences(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lookup(t, "retrynesting"), "silenced")
}

// The package's own Analyzer does not suppress: the same fixture reports
// everything the directives would silence.
func TestUnwrappedReports(t *testing.T) {
	res := analysistest.Run(&quiet{}, analysistest.TestData(), retrynesting.Analyzer, "silenced")
	if n := len(res[0].Diagnostics); n != 8 {
		t.Errorf("unwrapped retrynesting: %d diagnostics, want 8 (every nested loop of the fixture)", n)
	}
}

// One directive naming two checks silences both, on its line and the next.
func TestCommaSeparated(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lookup(t, "retrynesting"), "comma")
	analysistest.Run(t, analysistest.TestData(), lookup(t, "backoff"), "comma")
	// Without the wrapper both checks have findings there.
	for _, name := range []string{"retrynesting", "backoff"} {
		a := analyzers.Lookup(name)
		orig := *a
		orig.Run = unwrapped(t, name)
		res := analysistest.Run(&quiet{}, analysistest.TestData(), &orig, "comma")
		if len(res[0].Diagnostics) == 0 {
			t.Errorf("%s reports nothing in comma even without suppression: the test proves nothing", name)
		}
	}
}

func TestMalformed(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lookup(t, suppress.Name), "directives")
}

// With -unused, ignorecheck reports, under its own name, each check a
// directive names that it silenced nothing of; the checks report nothing
// about directives.
func TestUnused(t *testing.T) {
	setUnused(t, true)
	analysistest.Run(t, analysistest.TestData(), lookup(t, suppress.Name), "unused")
	res := analysistest.Run(&quiet{}, analysistest.TestData(), lookup(t, "retrynesting"), "unused")
	for _, d := range res[0].Diagnostics {
		if d.Category == "unused" || strings.Contains(d.Message, "resilint:ignore") {
			t.Errorf("retrynesting reports a directive: %s", d.Message)
		}
	}
}

func TestUnusedOffByDefault(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lookup(t, suppress.Name), "unusedquiet")
}

func setUnused(t *testing.T, on bool) {
	t.Helper()
	flags := &lookup(t, suppress.Name).Flags
	v := "false"
	if on {
		v = "true"
	}
	if err := flags.Set("unused", v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flags.Set("unused", "false") })
}

// unwrapped returns the Run of the check's own package Analyzer.
func unwrapped(t *testing.T, name string) func(*analysis.Pass) (any, error) {
	for _, a := range checks {
		if a.Name == name {
			return a.Run
		}
	}
	t.Fatalf("no check %q", name)
	return nil
}

// quiet is an analysistest.Testing that ignores unmet expectations, for
// runs that look at the diagnostics themselves.
type quiet struct{}

func (*quiet) Errorf(string, ...any) {}

// Findings in _test.go files and in test-support packages (testfiles/e2e,
// testfiles/integration, testfiles/cache/cachetest) are dropped by
// default; the switch brings them back. testfiles/latest only ends in
// "test", testfiles/integrations names connectors: both are reported.
func TestTestFilesOffByDefault(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lookup(t, "retrynesting"), "testfiles/...")
}

// Findings in a file with the header of generated code are dropped,
// whatever the tests switch says; the same nesting written by hand in
// the package is reported.
func TestGeneratedFiles(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lookup(t, "retrynesting"), "generated")
	suppress.SetIncludeTests(true)
	t.Cleanup(func() { suppress.SetIncludeTests(false) })
	analysistest.Run(t, analysistest.TestData(), lookup(t, "retrynesting"), "generated")
	res := analysistest.Run(&quiet{}, analysistest.TestData(), retrynesting.Analyzer, "generated")
	if n := len(res[0].Diagnostics); n != 2 {
		t.Errorf("unwrapped retrynesting: %d diagnostics, want 2 (the hand-written nest and the generated one)", n)
	}
}

func TestTestFilesSwitch(t *testing.T) {
	suppress.SetIncludeTests(true)
	t.Cleanup(func() { suppress.SetIncludeTests(false) })
	res := analysistest.Run(&quiet{}, analysistest.TestData(), lookup(t, "retrynesting"), "testfiles/...")
	var inTests int
	support := map[string]int{}
	for _, r := range res {
		for _, d := range r.Diagnostics {
			if strings.HasSuffix(r.Pass.Fset.Position(d.Pos).Filename, "_test.go") {
				inTests++
			}
			support[r.Pass.Pkg.Path()]++
		}
	}
	if inTests == 0 {
		t.Errorf("with tests switched on, the nested retry in testfiles_test.go is not reported")
	}
	for _, p := range []string{"testfiles/e2e", "testfiles/cache/cachetest", "testfiles/integration"} {
		if support[p] == 0 {
			t.Errorf("with tests switched on, the nested retry in %s is not reported", p)
		}
	}
}
