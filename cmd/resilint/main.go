// Command resilint finds resilience anti-patterns in Go code: retries
// nested inside retries, and more (see `resilint help`).
//
// Usage:
//
//	resilint [flags] packages...          analyze packages (standalone)
//	go vet -vettool=$(command -v resilint) ./...
//	resilint help [check]                 documentation of the checks
//
// The standalone mode takes the standard checker flags: -json, -fix,
// -diff, -c=N (context lines), -<check>=false to switch a check off, and
// -debug=t for timings.
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/resilint/resilint/analyzers"
)

func main() {
	multichecker.Main(analyzers.All()...)
}
