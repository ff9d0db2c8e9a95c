// Package timeoutchain exports, for Bazel's nogo, the Analyzer that resilint's
// suite runs: it is the timeoutchain check with //resilint:ignore suppression.
// See docs/integrations.md.
package timeoutchain

import "github.com/resilint/resilint/analyzers"

// Analyzer is the suite's timeoutchain (analyzers.Lookup("timeoutchain")).
var Analyzer = analyzers.Lookup("timeoutchain")
