// Command resilint finds resilience anti-patterns in Go code: retries
// nested inside retries, and more (see `resilint help`).
//
// Usage:
//
//	resilint [flags] packages...          analyze packages (standalone)
//	go vet -vettool=$(command -v resilint) ./...
//	resilint help [check]                 documentation of the checks
//	resilint lsp                          a Language Server (docs/editors.md)
//
// The standalone mode takes the standard checker flags: -json, -fix,
// -diff, -c=N (context lines), -<check>=false to switch a check off, and
// -debug=t for timings.
package main

import (
	"os"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/resilint/resilint/analyzers"
	"github.com/resilint/resilint/internal/lsp"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "lsp" {
		os.Exit(lsp.Main(os.Args[2:], analyzers.All()))
	}
	multichecker.Main(analyzers.All()...)
}
