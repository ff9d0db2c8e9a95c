package main

import (
	"flag"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers"
)

// registerAliases defines on fs the flags whose names the checker's
// -<analyzer>.<flag> namespace cannot give: -unused-ignores, the same
// switch as -ignorecheck.unused, and -include-tests, which reports findings
// in _test.go files too. Defined on flag.CommandLine before
// multichecker.Main, it is parsed with the checker's flags and listed by
// -flags, so that go vet accepts it too.
func registerAliases(fs *flag.FlagSet, all []*analysis.Analyzer) {
	if fs.Lookup("include-tests") == nil {
		fs.Var(analyzers.IncludeTestsFlag(), "include-tests", analyzers.IncludeTestsUsage)
	}
	for _, a := range all {
		if a.Name != "ignorecheck" {
			continue
		}
		if f := a.Flags.Lookup("unused"); f != nil && fs.Lookup("unused-ignores") == nil {
			fs.Var(f.Value, "unused-ignores", "report //resilint:ignore directives that silence nothing (same as -ignorecheck.unused)")
		}
	}
}
