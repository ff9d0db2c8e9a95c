// Command resilint finds resilience anti-patterns in Go code: retries
// nested inside retries, and more (see `resilint help`).
//
// Usage:
//
//	resilint [flags] packages...          analyze packages (standalone)
//	go vet -vettool=$(command -v resilint) ./...
//	resilint help [check]                 documentation of the checks
//	resilint lsp                          a Language Server (docs/editors.md)
//	resilint storm [flags] [packages]     simulate retry storms (docs/storm.md)
//	resilint -sarif [flags] packages...   SARIF 2.1.0 on standard output
//
// The standalone mode takes the standard checker flags: -json, -fix,
// -diff, -c=N (context lines), -<check>=false to switch a check off, and
// -debug=t for timings. -unused-ignores (also under go vet) reports
// //resilint:ignore directives that silence nothing. -sarif, given before
// the packages, writes the findings as SARIF for code scanning (see
// docs/integrations.md); it takes the analysis flags but not -json, -fix,
// -diff or -c.
package main

import (
	"flag"
	"os"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/resilint/resilint/analyzers"
	"github.com/resilint/resilint/internal/lsp"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "storm" {
		os.Exit(runStorm(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "lsp" {
		os.Exit(lsp.Main(os.Args[2:], analyzers.All()))
	}
	if sarifRequested(os.Args[1:]) {
		os.Exit(runSARIF(os.Args[1:], analyzers.All(), os.Stdout, os.Stderr))
	}
	registerAliases(flag.CommandLine, analyzers.All())
	multichecker.Main(analyzers.All()...)
}
