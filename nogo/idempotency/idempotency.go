// Package idempotency exports, for Bazel's nogo, the Analyzer that resilint's
// suite runs: it is the idempotency check with //resilint:ignore suppression.
// See docs/integrations.md.
package idempotency

import "github.com/resilint/resilint/analyzers"

// Analyzer is the suite's idempotency (analyzers.Lookup("idempotency")).
var Analyzer = analyzers.Lookup("idempotency")
