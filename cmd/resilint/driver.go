package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers"
	"github.com/resilint/resilint/internal/cache"
	"github.com/resilint/resilint/internal/engine"
)

// The standalone mode: load the packages with go/packages, run the suite
// with internal/engine (dependency order, facts kept, results cached), and
// print the findings in file, line and column
// order (then by check), whichever check made them.
//
// Exit statuses (documented in `resilint help`, help.go):
//
//	0  no findings; with -json, the findings were written; with -fix,
//	   every finding was fixed
//	1  a package does not load or type-check (its errors are printed
//	   once), an analysis failed, or fixes could not be written
//	2  bad usage (an unknown flag, no packages, -diff without -fix)
//	3  findings reported; with -fix, some findings could not be fixed

// options are the standalone mode's own flags.
type options struct {
	json    bool
	context int
	fix     bool
	diff    bool
	tests   bool
	debug   string
	version string
	mesh    string
}

// newFlagSet defines the standalone flags on a new flag set: the
// driver's, one -<check> switch per analyzer and its -<check>.<flag>
// flags, and -unused-ignores.
func newFlagSet(all []*analysis.Analyzer, o *options, stderr io.Writer) (*flag.FlagSet, map[*analysis.Analyzer]*triState) {
	fs := flag.NewFlagSet("resilint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usageLine(stderr) }
	fs.BoolVar(&o.json, "json", false, "write the findings as one JSON array on standard output (exit status 0 even with findings)")
	fs.IntVar(&o.context, "c", -1, "print each finding's line with this many lines of context around it")
	fs.BoolVar(&o.fix, "fix", false, "apply the suggested fixes to the files and report what was fixed and what was not")
	fs.BoolVar(&o.diff, "diff", false, "with -fix: print the fixes as a unified diff instead of writing the files")
	fs.BoolVar(&o.tests, "test", true, "load the packages' tests too")
	fs.StringVar(&o.debug, "debug", "", "debug flags: t timings, p one package at a time")
	fs.Var(versionFlag{&o.version}, "V", "print the version and exit (-V=full: the line go vet -vettool asks for)")
	fs.Bool("sarif", false, "write the findings as SARIF 2.1.0 on standard output (must come before the packages)")
	fs.StringVar(&o.mesh, "mesh", "", "also check the Istio and Envoy configuration in this file or directory, and count the mesh's retries in the code's findings (docs/checks/mesh.md)")
	enable := make(map[*analysis.Analyzer]*triState)
	for _, a := range all {
		enable[a] = new(triState)
		title, _, _ := strings.Cut(a.Doc, "\n")
		fs.Var(enable[a], a.Name, "run the "+a.Name+" check ("+title+"); -"+a.Name+"=false switches it off")
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	registerAliases(fs, all)
	return fs, enable
}

// runStandalone is `resilint [flags] packages...`; it returns the exit
// status.
func runStandalone(args []string, all []*analysis.Analyzer, stdout, stderr io.Writer) int {
	var o options
	fs, enable := newFlagSet(all, &o, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return runHelp(nil, stdout, stderr)
		}
		return 2
	}
	if code, done := handleVersion(o.version, stdout, stderr); done {
		return code
	}
	if o.diff && !o.fix {
		fmt.Fprintln(stderr, "resilint: -diff shows what -fix would change: use -fix -diff")
		return 2
	}
	if o.json && o.fix {
		fmt.Fprintln(stderr, "resilint: -json cannot be combined with -fix")
		return 2
	}
	if fs.NArg() == 0 {
		usageLine(stderr)
		return 2
	}
	analyzers := selectAnalyzers(all, enable)
	meshFindings, meshBad := prepareMesh(o.mesh, all, stderr)

	start := time.Now()
	res, err := analyze(fs.Args(), analyzers, o)
	if err != nil {
		fmt.Fprintf(stderr, "resilint: %v\n", err)
		return 1
	}
	for _, e := range res.errors {
		fmt.Fprintln(stderr, e)
	}
	printTestErrors(stderr, res.testErrors)
	code := 0
	if len(res.errors) > 0 || meshBad {
		code = 1
	}
	if len(meshFindings) > 0 {
		res.findings = append(res.findings, meshFindings...)
		sortFindings(res.findings)
	}
	switch {
	case o.fix:
		if c := applyFixes(res.findings, o.diff, stdout, stderr); code == 0 {
			code = c // status 1 (a package did not load) says more
		}
	case o.json:
		if err := writeJSON(stdout, res.findings); err != nil {
			fmt.Fprintf(stderr, "resilint: %v\n", err)
			code = 1
		}
	default:
		wd, _ := os.Getwd()
		for _, f := range res.findings {
			f.printText(stderr, wd, o.context)
		}
		if code == 0 && len(res.findings) > 0 {
			code = 3
		}
	}
	if strings.Contains(o.debug, "t") {
		printTimings(stderr, res.run, time.Since(start))
	}
	return code
}

// A finding is one diagnostic of a check, once even when the file belongs
// to several packages (a package and its test variant).
type finding struct {
	check     *analysis.Analyzer
	pkgPath   string
	files     *token.FileSet // of diag's positions
	diag      analysis.Diagnostic
	posn, end token.Position
}

func (f *finding) fset() *token.FileSet { return f.files }

type result struct {
	run      *engine.Result
	findings []*finding // in file, line, column, check order
	errors   []string   // package and analysis errors, each once
	// testErrors are the type errors of test files not reported
	// (without -include-tests): warnings, not errors.
	testErrors []string
}

// analyze loads the packages and runs the analyzers, in dependency order,
// reusing the cached results of packages whose inputs did not change
// (internal/engine, internal/cache). The error is for a failure to load
// anything at all; errors in packages are in the result.
func analyze(patterns []string, analyzers []*analysis.Analyzer, o options) (*result, error) {
	c, err := cache.Default()
	if err != nil {
		return nil, err
	}
	// The live heap is the shared export data and the one or two
	// packages being analyzed: collecting at half the default growth
	// keeps the peak resident memory near it, for about a quarter more
	// CPU time (docs/performance.md). GOGC set by the user wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	eng := engine.New(analyzers, engine.Options{Cache: c, Salt: "include-tests=" + analyzersIncludeTests()})
	cfg := engine.Config{Tests: o.tests}
	if strings.Contains(o.debug, "p") {
		cfg.Parallel = 1
	}
	run, err := eng.Run(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	res := &result{run: run}
	seenErr := make(map[string]bool)
	addErr := func(s string) {
		if !seenErr[s] {
			seenErr[s] = true
			res.errors = append(res.errors, s)
		}
	}
	for _, e := range run.Errors {
		addErr(e)
	}
	// Test files that do not type-check (a mock not generated yet) fail
	// the run only when findings in tests are reported; otherwise their
	// errors are warnings and the packages' other files are analyzed.
	if testsReported() {
		for _, e := range run.TestErrors {
			addErr(e)
		}
	} else {
		res.testErrors = run.TestErrors
	}
	byName := make(map[string]*analysis.Analyzer)
	for _, a := range analyzers {
		byName[a.Name] = a
	}
	type key struct {
		check     string
		posn, end token.Position
		message   string
	}
	seen := make(map[key]bool)
	table := engine.NewPosTable(nil)
	for _, p := range run.Packages {
		for _, e := range p.AnalysisErrors {
			addErr(e)
		}
		for _, d := range p.Diagnostics {
			a := byName[d.Analyzer]
			if a == nil {
				continue
			}
			ad := table.Diagnostic(d)
			f := &finding{check: a, pkgPath: p.PkgPath, files: table.Fset, diag: ad, posn: table.Fset.Position(ad.Pos)}
			f.end = f.posn
			if ad.End.IsValid() {
				f.end = table.Fset.Position(ad.End)
			}
			k := key{f.check.Name, f.posn, f.end, d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			res.findings = append(res.findings, f)
		}
	}
	sortFindings(res.findings)
	return res, nil
}

// sortFindings orders findings by file, line and column, then by check,
// then by message: the order a reader goes through the code.
func sortFindings(fs []*finding) {
	slices.SortStableFunc(fs, func(x, y *finding) int {
		return cmp.Or(
			cmp.Compare(x.posn.Filename, y.posn.Filename),
			cmp.Compare(x.posn.Line, y.posn.Line),
			cmp.Compare(x.posn.Column, y.posn.Column),
			cmp.Compare(x.check.Name, y.check.Name),
			cmp.Compare(x.diag.Message, y.diag.Message),
		)
	})
}

// displayPath names a file relative to the working directory when it is
// inside it, as go vet does.
func displayPath(wd string, p token.Position) string {
	name := p.Filename
	if wd != "" {
		if rel, err := filepath.Rel(wd, name); err == nil && filepath.IsLocal(rel) {
			name = rel
		}
	}
	if p.Line > 0 {
		name += fmt.Sprintf(":%d", p.Line)
		if p.Column > 0 {
			name += fmt.Sprintf(":%d", p.Column)
		}
	}
	return name
}

// printText prints a finding and its related locations, as go vet does:
// "file:line:col: message", then "file:line:col: \tmessage" per related
// location, each followed by source lines when context >= 0.
func (f *finding) printText(w io.Writer, wd string, context int) {
	print := func(posn, end token.Position, msg string) {
		fmt.Fprintf(w, "%s: %s\n", displayPath(wd, posn), msg)
		if context < 0 || !posn.IsValid() {
			return
		}
		if !end.IsValid() || end.Filename != posn.Filename {
			end = posn
		}
		data, err := os.ReadFile(posn.Filename)
		if err != nil {
			return
		}
		lines := strings.Split(string(data), "\n")
		for i := posn.Line - context; i <= end.Line+context; i++ {
			if 1 <= i && i <= len(lines) {
				fmt.Fprintf(w, "%d\t%s\n", i, lines[i-1])
			}
		}
	}
	print(f.posn, f.end, f.diag.Message)
	for _, r := range f.diag.Related {
		end := token.Position{}
		if r.End.IsValid() {
			end = f.fset().Position(r.End)
		}
		print(f.fset().Position(r.Pos), end, "\t"+r.Message)
	}
}

// The -json output: one array of findings in the text output's order.
type jsonFinding struct {
	Package        string        `json:"package"`
	Check          string        `json:"check"`
	Category       string        `json:"category,omitempty"`
	URL            string        `json:"url,omitempty"`
	Posn           string        `json:"posn"`
	End            string        `json:"end"`
	Message        string        `json:"message"`
	Related        []jsonRelated `json:"related,omitempty"`
	SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

// jsonEdit replaces the bytes [start, end) of a file with new.
type jsonEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

func writeJSON(w io.Writer, findings []*finding) error {
	out := []jsonFinding{}
	for _, f := range findings {
		fset := f.fset()
		j := jsonFinding{
			Package:  f.pkgPath,
			Check:    f.check.Name,
			Category: f.diag.Category,
			URL:      diagnosticURL(f.check, f.diag),
			Posn:     f.posn.String(),
			End:      f.end.String(),
			Message:  f.diag.Message,
		}
		for _, r := range f.diag.Related {
			j.Related = append(j.Related, jsonRelated{
				Posn:    fset.Position(r.Pos).String(),
				End:     fset.Position(cmp.Or(r.End, r.Pos)).String(),
				Message: r.Message,
			})
		}
		for _, fix := range f.diag.SuggestedFixes {
			jf := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
			for _, e := range fix.TextEdits {
				p, q := fset.Position(e.Pos), fset.Position(cmp.Or(e.End, e.Pos))
				jf.Edits = append(jf.Edits, jsonEdit{Filename: p.Filename, Start: p.Offset, End: q.Offset, New: string(e.NewText)})
			}
			j.SuggestedFixes = append(j.SuggestedFixes, jf)
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "\t")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// diagnosticURL is the documentation of a diagnostic: its own URL, or
// the analyzer's URL with the category as the fragment, the way gopls and
// the x/tools drivers resolve it.
func diagnosticURL(a *analysis.Analyzer, d analysis.Diagnostic) string {
	if d.URL != "" || a.URL == "" || d.Category == "" {
		return cmp.Or(d.URL, a.URL)
	}
	base, _, _ := strings.Cut(a.URL, "#")
	return base + "#" + d.Category
}

func printTimings(w io.Writer, r *engine.Result, total time.Duration) {
	if r == nil {
		return
	}
	fmt.Fprintf(w, "%v\ttotal (%d packages analyzed, %d from the cache)\n", total.Round(time.Millisecond), r.Analyzed, r.Cached)
	fmt.Fprintf(w, "%v\tloading the package graph\n", r.Load.Round(time.Millisecond))
	for _, name := range slices.Sorted(maps.Keys(r.Phases)) {
		fmt.Fprintf(w, "%v\t%s (all packages)\n", r.Phases[name].Round(time.Millisecond), name)
	}
	for _, t := range r.Timings[:min(len(r.Timings), 20)] {
		fmt.Fprintf(w, "%v\t%s\n", t.Duration.Round(time.Microsecond), t.ID)
	}
}

// analyzersIncludeTests is the -include-tests switch's value: part of
// every cache key, since it changes what is reported.
func analyzersIncludeTests() string { return analyzers.IncludeTestsFlag().String() }

// testsReported says whether findings in test files are reported
// (-include-tests); analyze's parameter hides the package's name.
func testsReported() bool { return analyzers.IncludeTests() }

// printTestErrors prints the type errors of test files, which do not fail
// a run that does not report findings in tests, and says so.
func printTestErrors(w io.Writer, errs []string) {
	if len(errs) == 0 {
		return
	}
	for _, e := range errs {
		fmt.Fprintln(w, e)
	}
	fmt.Fprintln(w, "resilint: warning: the test files above do not type-check; their packages' other files were analyzed (with -include-tests, which reports findings in tests, this is an error)")
}
