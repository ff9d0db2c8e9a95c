package main

import (
	"flag"

	"golang.org/x/tools/go/analysis"
)

// registerAliases defines on fs the flags whose names the checker's
// -<analyzer>.<flag> namespace cannot give: -unused-ignores, the same
// switch as -ignorecheck.unused. Defined on flag.CommandLine before
// multichecker.Main, it is parsed with the checker's flags and listed by
// -flags, so that go vet accepts it too.
func registerAliases(fs *flag.FlagSet, all []*analysis.Analyzer) {
	for _, a := range all {
		if a.Name != "ignorecheck" {
			continue
		}
		if f := a.Flags.Lookup("unused"); f != nil && fs.Lookup("unused-ignores") == nil {
			fs.Var(f.Value, "unused-ignores", "report //resilint:ignore directives that silence nothing (same as -ignorecheck.unused)")
		}
	}
}
