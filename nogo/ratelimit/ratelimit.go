// Package ratelimit exports, for Bazel's nogo, the Analyzer that resilint's
// suite runs: it is the ratelimit check with //resilint:ignore suppression.
// See docs/integrations.md.
package ratelimit

import "github.com/resilint/resilint/analyzers"

// Analyzer is the suite's ratelimit (analyzers.Lookup("ratelimit")).
var Analyzer = analyzers.Lookup("ratelimit")
