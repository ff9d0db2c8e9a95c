// Command resilint finds resilience anti-patterns in Go code: retries
// nested inside retries, retries around circuit breakers, retried POSTs
// without idempotency keys, timeouts that outlive their deadline, retry
// delays without jitter, cap or bound, and rate limits that leak under
// concurrency or refuse without saying when to come back.
//
// Usage:
//
//	resilint [flags] packages...          analyze packages (standalone)
//	go vet -vettool=$(command -v resilint) ./...
//	resilint help [check]                 what resilint does; one check's documentation
//	resilint lsp                          a Language Server (docs/editors.md)
//	resilint version                      the version resilint was built at
//	resilint storm [flags] [packages]     simulate retry storms (docs/storm.md)
//	resilint map -mesh DIR [packages]     the retry layers of code and mesh, as SVG
//	resilint -sarif [flags] packages...   SARIF 2.1.0 on standard output
//
// `resilint help` lists the flags and the exit statuses; its text is in
// help.go.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/resilint/resilint/analyzers"
	"github.com/resilint/resilint/internal/lsp"
)

// A subcommand is a word that, first on the command line, selects a mode
// other than analyzing packages. The list is the one place subcommands are
// named: main dispatches on it and `resilint help` lists it.
type subcommand struct {
	name    string
	args    string // the arguments, for the usage line
	summary string // one line
	run     func(args []string, stdout, stderr io.Writer) int
}

var subcommands []subcommand

func init() {
	// Set in init, not where declared: runHelp, one of them, reads the
	// list (a cycle in package initialization otherwise). A new
	// subcommand is one more row; help lists it.
	subcommands = []subcommand{
		{"help", "[check]", "what resilint finds, its flags and exit statuses; a check's documentation", runHelp},
		{"lsp", "[flags]", "a Language Server for editors, beside gopls (docs/editors.md)", func(args []string, _, _ io.Writer) int {
			return lsp.Main(args, analyzers.All())
		}},
		{"map", "[flags]", "an SVG map of the retry layers of code and service mesh: map -mesh DIR [packages] (docs/checks/mesh.md)", runMap},
		{"storm", "[flags]", "simulate retry policies, or the code's retry sites, in an outage (docs/storm.md)", runStorm},
		{"version", "", "the version resilint was built at", runVersion},
	}
}

func lookupSubcommand(name string) *subcommand {
	for i := range subcommands {
		if subcommands[i].name == name {
			return &subcommands[i]
		}
	}
	return nil
}

func main() {
	args := os.Args[1:]
	if len(args) > 0 {
		if sc := lookupSubcommand(args[0]); sc != nil {
			os.Exit(sc.run(args[1:], os.Stdout, os.Stderr))
		}
	}
	switch {
	case sarifRequested(args):
		os.Exit(runSARIF(args, analyzers.All(), os.Stdout, os.Stderr))
	case vetProtocol(args):
		// go vet -vettool: the go command asks for -flags, then runs the
		// tool on one package's .cfg file. unitchecker (through
		// multichecker.Main) speaks that protocol; -V=full is answered
		// here (see version.go) and -unused-ignores added to its flags.
		registerAliases(flag.CommandLine, analyzers.All())
		registerVersionFlag(flag.CommandLine)
		multichecker.Main(analyzers.All()...)
	default:
		os.Exit(runStandalone(args, analyzers.All(), os.Stdout, os.Stderr))
	}
}

// vetProtocol reports whether args are the go command's: -flags (which
// flags the tool takes), or flags and one .cfg file (analyze a unit).
func vetProtocol(args []string) bool {
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		return true
	}
	for _, a := range args {
		if a == "-flags" || a == "--flags" {
			return true
		}
	}
	return false
}

func usageLine(w io.Writer) {
	fmt.Fprintln(w, "usage: resilint [flags] packages...   (run 'resilint help' for more)")
}
