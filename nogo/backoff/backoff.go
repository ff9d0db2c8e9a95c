// Package backoff exports, for Bazel's nogo, the Analyzer that resilint's
// suite runs: it is the backoff check with //resilint:ignore suppression.
// See docs/integrations.md.
package backoff

import "github.com/resilint/resilint/analyzers"

// Analyzer is the suite's backoff (analyzers.Lookup("backoff")).
var Analyzer = analyzers.Lookup("backoff")
