package lsp

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"golang.org/x/tools/go/analysis"

	suite "github.com/resilint/resilint/analyzers"
)

// Main runs `resilint lsp [flags]`: a language server on standard input
// and output. It returns the process's exit status.
func Main(args []string, analyzers []*analysis.Analyzer) int {
	fs := flag.NewFlagSet("resilint lsp", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: resilint lsp [flags]

Runs a Language Server on standard input and output that analyzes each Go
file's package on open, save and edit (after a pause), publishes the
findings as diagnostics and offers the suggested fixes as quick fixes.
Run it beside gopls; see docs/editors.md.

Flags:
`)
		fs.PrintDefaults()
	}
	logfile := fs.String("logfile", "", "append the server's log to this file (default: standard error)")
	debounce := fs.Duration("debounce", time.Second, "quiet time after an edit before the package is analyzed again")
	fs.Var(suite.IncludeTestsFlag(), "include-tests", suite.IncludeTestsUsage)
	fs.Bool("stdio", true, "serve on standard input and output (the only transport; accepted for clients that pass it)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "resilint lsp: unexpected arguments %q\n", fs.Args())
		return 2
	}
	var logw io.Writer = os.Stderr
	if *logfile != "" {
		f, err := os.OpenFile(*logfile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintf(os.Stderr, "resilint lsp: %v\n", err)
			return 1
		}
		defer f.Close()
		logw = f
	}
	version := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		version = bi.Main.Version
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := Serve(ctx, os.Stdin, os.Stdout, Options{
		Analyzers: analyzers,
		Version:   version,
		Debounce:  *debounce,
		Log:       logw,
	})
	if err != nil {
		fmt.Fprintf(logw, "resilint lsp: %v\n", err)
		return 1
	}
	return 0
}
