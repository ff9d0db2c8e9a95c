package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers"
)

const helpIntro = `resilint finds resilience anti-patterns in Go code before they cause an
outage: retries nested inside retries, retries around circuit breakers,
retried POSTs without idempotency keys, timeouts that outlive their
deadline, retry delays without jitter, cap or bound, and rate limits that
leak under concurrency or refuse without saying when to come back. Its
suggested fixes use the primitives of github.com/resilint/resilint/runtime.

Usage:

  resilint [flags] packages...         analyze the packages, print the findings
  resilint -sarif [flags] packages...  the findings as SARIF 2.1.0, on standard output
  go vet -vettool=$(command -v resilint) [flags] packages...
  resilint <command> [arguments]
`

const helpExit = `Exit status:

  0  no findings (with -json or -sarif: the output was written; with -fix:
     every finding was fixed)
  1  a package does not load or type-check (the compiler's errors are
     printed once), an analysis failed, or a file's fixes could not be
     made (it could not be read or written, or would not parse). Test
     files that do not type-check count only with -include-tests; without
     it their errors are printed as a warning and the rest is analyzed
  2  bad usage: an unknown flag or check, no packages, -diff without -fix
  3  findings reported (with -fix: some findings could not be fixed; each
     is listed on standard error with its position and check)

Under go run the go command reports any status other than 0 as "exit
status 1"; build resilint (go build ./cmd/resilint) to see the real one.

A finding that does not apply is silenced on its line or the line above by
  //resilint:ignore <check>[,<check>] <reason>

Documentation: https://github.com/resilint/resilint/tree/main/docs
`

// runHelp is `resilint help [check...]`.
func runHelp(args []string, stdout, stderr io.Writer) int {
	all := analyzers.All()
	if len(args) == 0 {
		writeHelp(stdout, all)
		return 0
	}
	for i, name := range args {
		a := analyzers.Lookup(name)
		if name == meshCheck.Name {
			a = meshCheck // not an analyzer of packages: it runs with -mesh
		}
		if a == nil {
			var names []string
			for _, a := range all {
				names = append(names, a.Name)
			}
			names = append(names, meshCheck.Name)
			fmt.Fprintf(stderr, "resilint help: no check %q (the checks are %s)\n", name, strings.Join(names, ", "))
			return 2
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		writeCheckHelp(stdout, a)
	}
	return 0
}

func writeHelp(w io.Writer, all []*analysis.Analyzer) {
	fmt.Fprint(w, helpIntro)

	fmt.Fprint(w, "\nCommands:\n\n")
	for _, sc := range subcommands {
		fmt.Fprintf(w, "  %-16s %s\n", strings.TrimSpace(sc.name+" "+sc.args), sc.summary)
	}

	fmt.Fprint(w, "\nChecks (all run by default; -<check> runs only the checks so named,\n-<check>=false switches one off; 'resilint help <check>' documents one):\n\n")
	for _, a := range all {
		title, _, _ := strings.Cut(a.Doc, "\n")
		fmt.Fprintf(w, "  %-16s %s\n", a.Name, title)
	}
	fmt.Fprintf(w, "  %-16s %s\n", meshCheck.Name, "with -mesh DIR: Istio and Envoy retries, timeouts, pools and ejection that multiply load; code × mesh retries")

	fmt.Fprint(w, "\nFlags:\n\n")
	var o options
	fs, _ := newFlagSet(all, &o, io.Discard)
	checks := make(map[string]bool)
	for _, a := range all {
		checks[a.Name] = true
	}
	core := flag.NewFlagSet("", flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) {
		if !checks[f.Name] && !strings.Contains(f.Name, ".") {
			core.Var(f.Value, f.Name, f.Usage)
		}
	})
	core.SetOutput(w)
	core.PrintDefaults()
	fmt.Fprint(w, "\nEach check's own flags are -<check>.<flag> ('resilint help <check>').\n-sarif takes the check flags and -test, not -json, -fix, -diff or -c.\n\n")

	fmt.Fprint(w, helpExit)
}

// writeCheckHelp documents one check: its title, flags and description.
func writeCheckHelp(w io.Writer, a *analysis.Analyzer) {
	paras := strings.Split(a.Doc, "\n\n")
	fmt.Fprintf(w, "%s: %s\n", a.Name, paras[0])
	fs := flag.NewFlagSet(a.Name, flag.ContinueOnError)
	a.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, a.Name+"."+f.Name, f.Usage) })
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprint(w, "\nFlags:\n\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	if len(paras) > 1 {
		fmt.Fprintf(w, "\n%s\n", strings.Join(paras[1:], "\n\n"))
	}
	if a.URL != "" {
		fmt.Fprintf(w, "\nDocumentation: %s\n", a.URL)
	}
}
