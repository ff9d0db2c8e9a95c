// Package retrynesting exports, for Bazel's nogo, the Analyzer that resilint's
// suite runs: it is the retrynesting check with //resilint:ignore suppression.
// See docs/integrations.md.
package retrynesting

import "github.com/resilint/resilint/analyzers"

// Analyzer is the suite's retrynesting (analyzers.Lookup("retrynesting")).
var Analyzer = analyzers.Lookup("retrynesting")
