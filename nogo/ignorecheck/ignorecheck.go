// Package ignorecheck exports, for Bazel's nogo, the Analyzer that resilint's
// suite runs: it reports malformed //resilint:ignore directives.
// See docs/integrations.md.
package ignorecheck

import "github.com/resilint/resilint/analyzers"

// Analyzer is the suite's ignorecheck (analyzers.Lookup("ignorecheck")).
var Analyzer = analyzers.Lookup("ignorecheck")
