// Package analyzers is the resilint suite.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/backoff"
	"github.com/resilint/resilint/analyzers/decoratororder"
	"github.com/resilint/resilint/analyzers/idempotency"
	"github.com/resilint/resilint/analyzers/retrynesting"
	"github.com/resilint/resilint/analyzers/timeoutchain"
)

// All returns the suite's reporting analyzers, in documentation order.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		retrynesting.Analyzer,
		decoratororder.Analyzer,
		idempotency.Analyzer,
		timeoutchain.Analyzer,
		backoff.Analyzer,
	}
}
