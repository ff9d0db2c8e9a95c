// Package decoratororder exports, for Bazel's nogo, the Analyzer that resilint's
// suite runs: it is the decoratororder check with //resilint:ignore suppression.
// See docs/integrations.md.
package decoratororder

import "github.com/resilint/resilint/analyzers"

// Analyzer is the suite's decoratororder (analyzers.Lookup("decoratororder")).
var Analyzer = analyzers.Lookup("decoratororder")
