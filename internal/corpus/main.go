// Command corpus runs the resilint suite over pinned versions of popular
// public Go modules and holds every finding against a checked-in ledger
// of verdicts (see docs/corpus.md).
//
// Usage, from the repository root:
//
//	go run ./internal/corpus                  # every module of modules.txt
//	go run ./internal/corpus -short           # the CI subset
//	go run ./internal/corpus -modules a,b     # some modules (path or path@version)
//	go run ./internal/corpus -update          # append new findings as unjudged
//
// For each module it fetches the pinned version through the module proxy
// (go mod download), makes a writable copy under the user cache directory
// (never in the repository), resolves the dependencies of its packages and
// their tests (go get -t), builds cmd/resilint from this repository once and
// runs it with -json on the module's packages. Findings in _test.go files
// are dropped. It prints precision per check — right / (right + wrong +
// disputed) — and exits 1 on a package that does not load, a finding that
// is not in the ledger or is still unjudged, or a right finding that is no
// longer made.
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	list, ledger, cache string
	modules             string
	short, update       bool
	prune, verbose      bool
}

func run(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("corpus", flag.ContinueOnError)
	fset.SetOutput(stderr)
	var o options
	fset.StringVar(&o.list, "list", "internal/corpus/modules.txt", "the module list")
	fset.StringVar(&o.ledger, "ledger", "internal/corpus/ledger.tsv", "the ledger of verdicts")
	fset.StringVar(&o.cache, "cache", "", "where fetched modules are kept (default: resilint-corpus in the user cache directory)")
	fset.StringVar(&o.modules, "modules", "", "comma-separated modules to run (path or path@version; default all)")
	fset.BoolVar(&o.short, "short", false, "run only the modules marked short (the CI subset)")
	fset.BoolVar(&o.update, "update", false, "append new findings to the ledger as unjudged; list vanished entries")
	fset.BoolVar(&o.prune, "prune", false, "with -update, remove vanished entries judged wrong or disputed (listed; right ones are never removed)")
	fset.BoolVar(&o.verbose, "v", false, "print the commands run and the driver's standard error")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if fset.NArg() > 0 {
		fmt.Fprintf(stderr, "corpus: unexpected arguments %q\n", fset.Args())
		return 2
	}
	if o.prune && !o.update {
		fmt.Fprintln(stderr, "corpus: -prune needs -update")
		return 2
	}
	if err := corpus(o, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "corpus: %v\n", err)
		return 1
	}
	return 0
}

// errFailed is returned after the failures have been printed.
var errFailed = errors.New("FAIL")

func corpus(o options, stdout, stderr io.Writer) error {
	mods, err := readModules(o.list)
	if err != nil {
		return err
	}
	var names []string
	if o.modules != "" {
		names = strings.Split(o.modules, ",")
	}
	sel, err := selectModules(mods, names, o.short)
	if err != nil {
		return err
	}
	entries, err := readLedger(o.ledger)
	if err != nil {
		return err
	}
	if o.cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("no cache directory (set -cache): %v", err)
		}
		o.cache = filepath.Join(dir, "resilint-corpus")
	}
	if err := os.MkdirAll(o.cache, 0o755); err != nil {
		return err
	}

	// The binary is this run's own: two runs at once (from two checkouts)
	// share the fetched modules, never the suite they run.
	binDir, err := os.MkdirTemp("", "resilint-corpus-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(binDir)
	bin := filepath.Join(binDir, "resilint")
	start := time.Now()
	build := exec.Command("go", "build", "-o", bin, "./cmd/resilint")
	build.Stderr = stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building cmd/resilint: %v", err)
	}
	fmt.Fprintf(stdout, "built resilint in %.1fs\n", time.Since(start).Seconds())

	var findings []finding
	var loadErrs []string
	ran := make(map[string]bool)
	for _, m := range sel {
		w := &workdir{cache: o.cache, verbose: o.verbose, log: stderr}
		t0 := time.Now()
		dir, fresh, err := w.prepare(m)
		setup := time.Since(t0)
		if err != nil {
			loadErrs = append(loadErrs, fmt.Sprintf("%s: %v", m.ID(), err))
			fmt.Fprintf(stdout, "%-60s FETCH FAILED (%.1fs)\n", m.ID(), setup.Seconds())
			continue
		}
		t1 := time.Now()
		p, problems, err := w.analyze(bin, dir, m)
		took := time.Since(t1)
		if err != nil {
			loadErrs = append(loadErrs, fmt.Sprintf("%s: %v", m.ID(), err))
			fmt.Fprintf(stdout, "%-60s FAILED (%.1fs)\n", m.ID(), took.Seconds())
			continue
		}
		ran[m.ID()] = true
		for _, pr := range problems {
			loadErrs = append(loadErrs, fmt.Sprintf("%s: %s", m.ID(), pr))
		}
		for _, e := range p.Errors {
			loadErrs = append(loadErrs, fmt.Sprintf("%s: analysis failed: %s", m.ID(), e))
		}
		findings = append(findings, p.Findings...)
		setupNote := "cached"
		if fresh {
			setupNote = fmt.Sprintf("fetched in %.1fs", setup.Seconds())
		}
		fmt.Fprintf(stdout, "%-60s %3d findings (%d in test files dropped), analysis %.1fs, %s\n",
			m.ID(), len(p.Findings), p.TestFiles, took.Seconds(), setupNote)
	}

	c := compare(entries, findings, ran)
	printPrecision(stdout, c)

	if o.update {
		out, removed := update(entries, c, o.prune)
		for _, e := range c.Vanished {
			if !slices.ContainsFunc(removed, func(r entry) bool { return r.Line == e.Line }) {
				fmt.Fprintf(stdout, "vanished, kept in the ledger (line %d): %s %s %s %s: %s\n", e.Line, e.Module, e.Pos, checkName(e.Check, e.Category), e.Verdict, e.Reason)
			}
		}
		for _, e := range removed {
			fmt.Fprintf(stdout, "vanished, removed from the ledger: %s %s %s %s: %s\n", e.Module, e.Pos, checkName(e.Check, e.Category), e.Verdict, e.Reason)
		}
		if err := writeLedgerFile(o.ledger, out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "ledger: %d new findings appended as unjudged\n", len(c.New))
	} else {
		for _, e := range c.Vanished {
			if e.Verdict != verdictRight {
				fmt.Fprintf(stdout, "no longer made (was %s; -update -prune removes it): %s %s %s\n", e.Verdict, e.Module, e.Pos, checkName(e.Check, e.Category))
			}
		}
	}

	fails := c.failures()
	for _, e := range loadErrs {
		fails = append(fails, e)
	}
	if len(fails) > 0 {
		fmt.Fprintf(stdout, "\n%d failures:\n", len(fails))
		for _, f := range fails {
			fmt.Fprintf(stdout, "  %s\n", f)
		}
		return errFailed
	}
	fmt.Fprintln(stdout, "ok: every finding is in the ledger and judged, every right finding is still made")
	return nil
}

func readModules(path string) ([]module, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	mods, err := parseModules(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return mods, nil
}

func readLedger(path string) ([]entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := parseLedger(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return entries, nil
}

func writeLedgerFile(path string, entries []entry) error {
	var buf bytes.Buffer
	if err := writeLedger(&buf, entries); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func printPrecision(w io.Writer, c comparison) {
	perCheck, total := c.precision()
	checks := make([]string, 0, len(perCheck))
	for name := range perCheck {
		checks = append(checks, name)
	}
	slices.Sort(checks)
	fmt.Fprintf(w, "\n%-16s %6s %6s %9s %9s %10s\n", "check", "right", "wrong", "disputed", "unjudged", "precision")
	line := func(name string, t tally) {
		prec := "-"
		if p, ok := t.Precision(); ok {
			prec = fmt.Sprintf("%.0f%%", 100*p)
		}
		fmt.Fprintf(w, "%-16s %6d %6d %9d %9d %10s\n", name, t.Right, t.Wrong, t.Disputed, t.Unjudged, prec)
	}
	for _, name := range checks {
		line(name, *perCheck[name])
	}
	line("total", total)
	fmt.Fprintln(w)
}

// A workdir prepares modules in the cache and runs the driver on them.
type workdir struct {
	cache   string
	verbose bool
	log     io.Writer
}

// env is the environment of every go command run in a module's copy: its
// own go.mod only, the machine's Go, and go.mod and go.sum updated as
// needed.
func (w *workdir) env() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
}

func (w *workdir) command(dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = w.env()
	if w.verbose {
		fmt.Fprintf(w.log, "+ (cd %s && %s %s)\n", dir, name, strings.Join(args, " "))
	}
	return cmd
}

// readyMark is written in a module's copy once its dependencies resolve.
const readyMark = ".resilint-corpus-ready"

// prepare returns the directory of a writable copy of m with its
// dependencies resolved, making it unless a previous run did (fresh
// reports that it was made now).
func (w *workdir) prepare(m module) (dir string, fresh bool, err error) {
	root := filepath.Join(w.cache, strings.ReplaceAll(m.ID(), "/", "_"))
	dir = filepath.Join(root, "src")
	if _, err := os.Stat(filepath.Join(root, readyMark)); err == nil {
		return dir, false, nil
	}
	if err := os.RemoveAll(root); err != nil {
		return "", false, err
	}
	var out bytes.Buffer
	cmd := w.command(w.cache, "go", "mod", "download", "-json", m.ID())
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return "", false, fmt.Errorf("go mod download %s: %v\n%s", m.ID(), err, out.Bytes())
	}
	var info struct{ Dir, GoMod, Error string }
	if err := json.Unmarshal(out.Bytes(), &info); err != nil || info.Dir == "" {
		return "", false, fmt.Errorf("go mod download %s: %s %v", m.ID(), cmp.Or(info.Error, out.String()), err)
	}
	if err := copyTree(info.Dir, dir); err != nil {
		return "", false, err
	}
	// A module without a go.mod of its own (an old one) gets the one the
	// proxy serves for it, which names only the module.
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); errors.Is(err, fs.ErrNotExist) {
		data, err := os.ReadFile(info.GoMod)
		if err != nil {
			return "", false, err
		}
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), data, 0o644); err != nil {
			return "", false, err
		}
	}
	// A module of a monorepo may replace its siblings by relative paths
	// (../api), which do not exist in the copy: as a dependency, where its
	// replacements are ignored, it uses their required versions, and so
	// does the corpus.
	if err := w.dropLocalReplaces(dir); err != nil {
		return "", false, err
	}
	// The dependencies of every package analyzed and of its tests, so
	// that every package loads: go get -t adds what go.mod lacks, and
	// writes go.sum.
	for _, args := range [][]string{
		{"mod", "download"},
		append([]string{"get", "-t"}, m.Patterns...),
	} {
		out.Reset()
		cmd := w.command(dir, "go", args...)
		cmd.Stdout = &out
		cmd.Stderr = &out
		if err := cmd.Run(); err != nil {
			return "", false, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out.Bytes())
		}
	}
	if err := os.WriteFile(filepath.Join(root, readyMark), nil, 0o644); err != nil {
		return "", false, err
	}
	return dir, true, nil
}

// dropLocalReplaces removes the replace directives of dir's go.mod whose
// target is a directory.
func (w *workdir) dropLocalReplaces(dir string) error {
	var out bytes.Buffer
	cmd := w.command(dir, "go", "mod", "edit", "-json")
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go mod edit -json: %v\n%s", err, out.Bytes())
	}
	var gomod struct {
		Replace []struct {
			Old struct{ Path, Version string }
			New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &gomod); err != nil {
		return fmt.Errorf("go mod edit -json: %v", err)
	}
	args := localReplaces(gomod.Replace)
	if len(args) == 0 {
		return nil
	}
	out.Reset()
	cmd = w.command(dir, "go", append([]string{"mod", "edit"}, args...)...)
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go mod edit: %v\n%s", err, out.Bytes())
	}
	return nil
}

// localReplaces returns the go mod edit flags that drop the replacements
// by a directory (a target without a version).
func localReplaces(replaces []struct {
	Old struct{ Path, Version string }
	New struct{ Path, Version string }
}) []string {
	var args []string
	for _, r := range replaces {
		if r.New.Version != "" {
			continue
		}
		old := r.Old.Path
		if r.Old.Version != "" {
			old += "@" + r.Old.Version
		}
		args = append(args, "-dropreplace="+old)
	}
	return args
}

// copyTree copies the regular files of src (a read-only module in the
// module cache) to dst, writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// analyze runs the driver with -json on m's packages in dir. It returns
// the findings, and the load problems the driver printed (a package that
// does not load or type-check).
func (w *workdir) analyze(bin, dir string, m module) (parsed, []string, error) {
	var stdout, stderr bytes.Buffer
	cmd := w.command(dir, bin, append([]string{"-json"}, m.Patterns...)...)
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := cmd.Run()
	if w.verbose && stderr.Len() > 0 {
		w.log.Write(stderr.Bytes())
	}
	_ = os.WriteFile(filepath.Join(filepath.Dir(dir), "last.json"), stdout.Bytes(), 0o644)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return parsed{}, nil, err
	}
	if stdout.Len() == 0 {
		return parsed{}, nil, fmt.Errorf("no output from the driver (%v)\n%s", err, stderr.Bytes())
	}
	p, perr := parseOutput(stdout.Bytes(), m.ID(), dir)
	if perr != nil {
		return parsed{}, nil, perr
	}
	var problems []string
	if err != nil {
		// With -json the checker exits 0 unless packages failed to load,
		// and prints why on standard error.
		for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
			if l != "" {
				problems = append(problems, "load: "+l)
			}
		}
		if len(problems) == 0 {
			problems = append(problems, fmt.Sprintf("driver: %v", err))
		}
	}
	return p, problems, nil
}
