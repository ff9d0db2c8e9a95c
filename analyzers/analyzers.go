// Package analyzers is the resilint suite.
package analyzers

import (
	"flag"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/backoff"
	"github.com/resilint/resilint/analyzers/decoratororder"
	"github.com/resilint/resilint/analyzers/idempotency"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/suppress"
	"github.com/resilint/resilint/analyzers/ratelimit"
	"github.com/resilint/resilint/analyzers/retrynesting"
	"github.com/resilint/resilint/analyzers/timeoutchain"
)

// checks are the reporting analyzers, in documentation order, as their
// packages export them.
var checks = []*analysis.Analyzer{
	retrynesting.Analyzer,
	decoratororder.Analyzer,
	idempotency.Analyzer,
	timeoutchain.Analyzer,
	backoff.Analyzer,
	ratelimit.Analyzer,
}

// suite is what All returns: the checks wrapped for //resilint:ignore,
// then ignorecheck. It is built once so that every caller gets the same
// *analysis.Analyzer values (drivers key their work by them).
var suite = func() []*analysis.Analyzer {
	var all []*analysis.Analyzer
	for _, a := range checks {
		all = append(all, suppress.Wrap(a))
	}
	return append(all, suppress.Checker(all))
}()

// All returns the suite's reporting analyzers, in documentation order,
// followed by ignorecheck, which reports malformed //resilint:ignore
// directives.
//
// Each check is a copy of its package's Analyzer (same name, flags and
// facts) that drops the diagnostics a //resilint:ignore directive
// silences, so suppression works under whatever driver runs the suite.
// The packages' own Analyzer variables do not suppress anything.
func All() []*analysis.Analyzer {
	return slices.Clone(suite)
}

// Lookup returns the analyzer of All named name, or nil.
func Lookup(name string) *analysis.Analyzer {
	for _, a := range suite {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// SetIncludeTests switches the suite's findings in _test.go files on or off
// (off by default: tests wait fixed delays and retry at once on purpose).
// Drivers call it once, from their -include-tests flag or setting, before
// analysis starts.
func SetIncludeTests(on bool) { suppress.SetIncludeTests(on) }

// IncludeTests reports whether the switch is on: findings in test code
// are reported.
func IncludeTests() bool { return suppress.IncludeTests() }

// IncludeTestsFlag returns a boolean flag.Value bound to the same switch,
// for drivers that register it as -include-tests.
func IncludeTestsFlag() flag.Value { return suppress.TestsFlag() }

// FixImports returns the import paths of the runtime packages that the
// suite's suggested fixes add (retry and idempotency), for drivers that
// prepare them ahead of a fix being applied.
func FixImports() []string { return []string{catalog.ResilintRetry, catalog.ResilintIdempotency} }

// IncludeTestsUsage is the usage text of the -include-tests flag.
const IncludeTestsUsage = suppress.TestsFlagUsage
