package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// position is a finding's file:line:col, for ordering.
type position struct {
	file      string
	line, col int
}

func parsePosn(t *testing.T, s string) position {
	t.Helper()
	m := regexp.MustCompile(`^(.*):(\d+):(\d+)$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("bad position %q", s)
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	return position{m[1], line, col}
}

func (p position) less(q position) bool {
	if p.file != q.file {
		return p.file < q.file
	}
	if p.line != q.line {
		return p.line < q.line
	}
	return p.col < q.col
}

// Findings come in file, line and column order (then by check), in the
// text and the JSON output alike, not grouped by check.
func TestOutputOrder(t *testing.T) {
	root := repoRoot(t)
	stdout, stderr, code := run(t, root, bin, "-json", "./examples/...")
	if code != 0 {
		t.Fatalf("-json: exit %d\n%s", code, stderr)
	}
	var findings []jsonFinding
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil {
		t.Fatal(err)
	}
	var jsonOrder []position
	checks := make(map[string]bool)
	runs := 0 // maximal runs of one check in the sequence
	for i, f := range findings {
		p := parsePosn(t, f.Posn)
		if i > 0 {
			prev := findings[i-1]
			q := parsePosn(t, prev.Posn)
			if p.less(q) || p == q && f.Check < prev.Check {
				t.Errorf("-json: %s (%s) after %s (%s)", f.Posn, f.Check, prev.Posn, prev.Check)
			}
		}
		if i == 0 || findings[i-1].Check != f.Check {
			runs++
		}
		checks[f.Check] = true
		rel, err := filepath.Rel(root, p.file)
		if err != nil {
			t.Fatal(err)
		}
		jsonOrder = append(jsonOrder, position{filepath.ToSlash(rel), p.line, p.col})
	}
	if len(checks) < 3 || runs <= len(checks) {
		t.Fatalf("the demo's findings should interleave several checks: %d checks in %d runs", len(checks), runs)
	}

	_, stderr, code = run(t, root, bin, "./examples/...")
	if code != 3 {
		t.Fatalf("text: exit %d, want 3\n%s", code, stderr)
	}
	var textOrder []position
	for _, m := range regexp.MustCompile(`(?m)^(\S+\.go:\d+:\d+): [^\t]`).FindAllStringSubmatch(stderr, -1) {
		p := parsePosn(t, m[1])
		p.file = filepath.ToSlash(p.file)
		textOrder = append(textOrder, p)
	}
	if got, want := textOrder, jsonOrder; len(got) != len(want) {
		t.Fatalf("text has %d findings, JSON %d", len(got), len(want))
	}
	for i := range textOrder {
		if textOrder[i] != jsonOrder[i] {
			t.Errorf("finding %d: text at %v, JSON at %v", i, textOrder[i], jsonOrder[i])
		}
	}
}

const fixableGo = `package fixme

import (
	"errors"
	"time"
)

func call() error { return errors.New("down") }

func Fixed() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return err
}
`

// A malformed directive: an ignorecheck finding, which has no fix.
const unfixableGo = `package fixme

func Unfixable() error {
	//resilint:ignore backoff
	return call()
}
`

// fixModule writes a module that uses the checkout's runtime (as the
// fixes' imports need) and returns its directory.
func fixModule(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), localModule("fixme", root))
	for name, src := range files {
		write(t, filepath.Join(dir, name), src)
	}
	return dir
}

// localModule is the go.mod of a module that takes resilint's runtime
// from the checkout at root, as docs/integrations.md tells users to: a
// replace of the runtime module when runtime/ is a module of its own,
// else of the whole resilint module. Nothing requires it yet: after
// -fix adds the import, go mod tidy adds the requirement, offline.
func localModule(name, root string) string {
	mod := "github.com/resilint/resilint"
	dir := root
	if _, err := os.Stat(filepath.Join(root, "runtime", "go.mod")); err == nil {
		mod += "/runtime"
		dir = filepath.Join(root, "runtime")
	}
	return "module " + name + "\n\ngo 1.26\n\nreplace " + mod + " => " + dir + "\n"
}

var fixedLine = regexp.MustCompile(`(?m)^resilint: (fixed|would fix) (\d+) of (\d+) findings? \((\d+|1) files? changed\)$`)

// -fix says what it fixed and what it could not, on standard error, and
// exits 3 while findings remain, 0 when none do.
func TestFixReport(t *testing.T) {
	dir := fixModule(t, map[string]string{"fixable.go": fixableGo, "unfixable.go": unfixableGo})
	_, before, code := run(t, dir, bin, "./...")
	if code != 3 {
		t.Fatalf("before: exit %d, want 3\n%s", code, before)
	}
	findings := regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: [^\t]`).FindAllString(before, -1)

	// -fix -diff: a diff on standard output, the report on standard
	// error, no file changed.
	orig, _ := os.ReadFile(filepath.Join(dir, "fixable.go"))
	stdout, stderr, code := run(t, dir, bin, "-fix", "-diff", "./...")
	if code != 3 || !strings.HasPrefix(stdout, "--- fixable.go\n+++ fixable.go\n@@ ") || !strings.Contains(stdout, "+\t\"github.com/resilint/resilint/runtime/retry\"") {
		t.Errorf("-fix -diff: exit %d, want 3 and a unified diff of fixable.go:\n%s\n%s", code, stdout, stderr)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "fixable.go")); string(now) != string(orig) {
		t.Errorf("-fix -diff changed fixable.go")
	}
	if m := fixedLine.FindStringSubmatch(stderr); m == nil || m[1] != "would fix" {
		t.Errorf("-fix -diff report:\n%s", stderr)
	}

	_, stderr, code = run(t, dir, bin, "-fix", "./...")
	if code != 3 {
		t.Errorf("-fix with an unfixable finding: exit %d, want 3\n%s", code, stderr)
	}
	m := fixedLine.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("-fix: no summary line in:\n%s", stderr)
	}
	// The module replaces the runtime but does not require it yet: -fix
	// says the new import does not build yet, and what to run.
	if !strings.Contains(stderr, "the fixes import github.com/resilint/resilint/runtime/retry, which does not build yet") || !strings.Contains(stderr, "run go mod tidy") {
		t.Errorf("-fix: no hint about the runtime's requirement:\n%s", stderr)
	}
	nFixed, _ := strconv.Atoi(m[2])
	nAll, _ := strconv.Atoi(m[3])
	if nAll != len(findings) || nFixed == 0 || nFixed >= nAll {
		t.Errorf("-fix: %q, want some but not all of the %d findings fixed:\n%s", m[0], len(findings), before)
	}
	notFixed := regexp.MustCompile(`(?m)^(\S+\.go:\d+:\d+): (\w+): (.+)$`).FindAllStringSubmatch(stderr, -1)
	if len(notFixed) != nAll-nFixed {
		t.Errorf("-fix: %d findings listed as not fixed, want %d:\n%s", len(notFixed), nAll-nFixed, stderr)
	}
	for _, nf := range notFixed {
		if nf[1] != "unfixable.go:4:2" || nf[2] != "ignorecheck" || nf[3] != "no automatic fix" {
			t.Errorf("-fix: not fixed %q, want unfixable.go:4:2: ignorecheck: no automatic fix", nf[0])
		}
	}
	if _, stderr, code := runEnv(t, dir, []string{"GOPROXY=off"}, "go", "mod", "tidy"); code != 0 {
		t.Fatalf("go mod tidy after -fix, with the local replace and no network: %s", stderr)
	}
	if _, stderr, code := run(t, dir, "go", "build", "./..."); code != 0 {
		t.Fatalf("fixed module does not build:\n%s", stderr)
	}
	// What -fix said it left is what remains.
	_, after, _ := run(t, dir, bin, "./...")
	if left := regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: [^\t]`).FindAllString(after, -1); len(left) != len(notFixed) {
		t.Errorf("after -fix, %d findings remain, the report listed %d:\n%s", len(left), len(notFixed), after)
	}

	// Once the unfixable one is gone, -fix has nothing left: status 0.
	write(t, filepath.Join(dir, "unfixable.go"), "package fixme\n")
	write(t, filepath.Join(dir, "fixable.go"), fixableGo)
	_, stderr, code = run(t, dir, bin, "-fix", "./...")
	if m := fixedLine.FindStringSubmatch(stderr); code != 0 || m == nil || m[2] != m[3] || strings.Contains(stderr, "not fixed") {
		t.Errorf("-fix of fixable findings only: exit %d, want 0 and all fixed:\n%s", code, stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-diff", "./..."},
		{"-json", "-fix", "./..."},
		{"-nosuchflag", "./..."},
		{},
	} {
		_, stderr, code := run(t, repoRoot(t), bin, args...)
		if code != 2 || stderr == "" {
			t.Errorf("resilint %q: exit %d, want 2 and a message\n%s", args, code, stderr)
		}
	}
	_, stderr, _ := run(t, repoRoot(t), bin, "-diff", "./...")
	if !strings.Contains(stderr, "-fix -diff") {
		t.Errorf("-diff alone: %q, want a hint to use -fix -diff", stderr)
	}
}

// `resilint help` is resilint's own text: checks, commands, flags, exit
// statuses. The golden file is testdata/help.golden; after a deliberate
// change (a new check or flag), run go test -run TestHelpGolden -update.
func TestHelpGolden(t *testing.T) {
	stdout, stderr, code := run(t, repoRoot(t), bin, "help")
	if code != 0 || stderr != "" {
		t.Fatalf("help: exit %d\n%s", code, stderr)
	}
	golden := filepath.Join("testdata", "help.golden")
	if *update {
		write(t, golden, stdout)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if stdout != string(want) {
		t.Errorf("resilint help differs from %s (run with -update after a deliberate change):\n%s", golden, lineDiff(string(want), stdout))
	}
	for _, bad := range []string{"Printf", "fixtool", "go fix"} {
		if strings.Contains(stdout, bad) {
			t.Errorf("help mentions %q", bad)
		}
	}
	// -h and -help print the same.
	h, _, code := run(t, repoRoot(t), bin, "-h")
	if code != 0 || h != stdout {
		t.Errorf("-h: exit %d, want 0 and the help text:\n%s", code, h)
	}
	_, stderr, code = run(t, repoRoot(t), bin, "help", "nosuchcheck")
	if code != 2 || !strings.Contains(stderr, `no check "nosuchcheck"`) || !strings.Contains(stderr, "ignorecheck, mesh)") {
		t.Errorf("help nosuchcheck: exit %d\n%s", code, stderr)
	}
}

// -V=full answers the go command's question in the form it parses, with
// the executable's hash, so that a rebuilt resilint does not reuse the
// go command's cached vet results.
func TestVersion(t *testing.T) {
	full := regexp.MustCompile(`^resilint version (\S+) go\S+ buildID=[0-9a-f]{64}\n$`)
	stdout, stderr, code := run(t, repoRoot(t), bin, "-V=full")
	m := full.FindStringSubmatch(stdout)
	if code != 0 || m == nil {
		t.Fatalf("-V=full: exit %d, output %q %s", code, stdout, stderr)
	}
	if strings.Contains(m[1], "devel") != !strings.HasPrefix(m[1], "v") {
		t.Errorf("-V=full: version %q is neither a module version nor devel", m[1])
	}
	other := filepath.Join(t.TempDir(), "resilint2")
	if _, stderr, code := run(t, ".", "go", "build", "-ldflags=-s -w", "-o", other, "."); code != 0 {
		t.Fatal(stderr)
	}
	stdout2, _, _ := run(t, repoRoot(t), other, "-V=full")
	if !full.MatchString(stdout2) || stdout2 == stdout {
		t.Errorf("-V=full of a different binary: %q, want a different line than %q", stdout2, stdout)
	}
	stdout, _, code = run(t, repoRoot(t), bin, "version")
	vm := regexp.MustCompile(`^resilint version (v\S+|devel.*) go\S+\n$`).FindStringSubmatch(stdout)
	if code != 0 || vm == nil {
		t.Fatalf("version: exit %d, %q", code, stdout)
	}
	// SARIF's tool.driver.version is the same.
	sarif, _, _ := run(t, repoRoot(t), bin, "-sarif", "./examples/notifications")
	var log struct {
		Runs []struct {
			Tool struct{ Driver struct{ Version string } }
		}
	}
	if err := json.Unmarshal([]byte(sarif), &log); err != nil || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Version != vm[1] {
		t.Errorf("SARIF tool.driver.version %+v (%v), want %q", log, err, vm[1])
	}

	// Built in the Git checkout with VCS stamping, the version is the
	// module's pseudo-version from the commit (+dirty with local changes).
	stamped := filepath.Join(t.TempDir(), "resilint-vcs")
	if _, stderr, code := runEnv(t, ".", []string{"GOFLAGS=-buildvcs=true"}, "go", "build", "-o", stamped, "."); code != 0 {
		t.Logf("no VCS stamping here (%s)", strings.TrimSpace(stderr))
		return
	}
	stdout, _, _ = run(t, repoRoot(t), stamped, "-V=full")
	if strings.Contains(stdout, " devel ") {
		t.Log("the go command stamped no VCS information here (a git worktree?); TestFormatVersion covers the forms")
		return
	}
	if m := full.FindStringSubmatch(stdout); m == nil || !regexp.MustCompile(`^v\d+\.\d+\.\d+-\S*[0-9a-f]{12}(\+dirty)?$`).MatchString(m[1]) {
		t.Errorf("-V=full of a VCS-stamped build: %q, want a pseudo-version from the commit", stdout)
	}
}

// The other documented set-up for a local checkout: a go.work that uses
// the checkout's runtime module (or, before runtime/ is a module of its
// own, the whole checkout). -fix adds the runtime's import; the module
// builds without any change to its go.mod.
func TestLocalCheckoutWorkspace(t *testing.T) {
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	use := root
	if _, err := os.Stat(filepath.Join(root, "runtime", "go.mod")); err == nil {
		use = filepath.Join(root, "runtime")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module fixme\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "fixable.go"), fixableGo)
	env := []string{"GOWORK=", "GOFLAGS=-mod=readonly"}
	for _, args := range [][]string{{"work", "init", "."}, {"work", "use", use}} {
		if _, stderr, code := runEnv(t, dir, env, "go", args...); code != 0 {
			t.Fatalf("go %s: %s", strings.Join(args, " "), stderr)
		}
	}
	_, stderr, code := runEnv(t, dir, env, bin, "-fix", "./")
	if code != 0 || !strings.Contains(stderr, "fixed 1 of 1 finding") || strings.Contains(stderr, "does not build yet") {
		t.Fatalf("-fix in the workspace: exit %d\n%s", code, stderr)
	}
	if src, _ := os.ReadFile(filepath.Join(dir, "fixable.go")); !strings.Contains(string(src), `"github.com/resilint/resilint/runtime/retry"`) {
		t.Fatalf("the fix did not import runtime/retry:\n%s", src)
	}
	if _, stderr, code := runEnv(t, dir, env, "go", "build", "./"); code != 0 {
		t.Fatalf("go build in the workspace after -fix: %s", stderr)
	}
}

// The README's quick start: under go run the program's status 3 becomes
// the go command's "exit status 3" line and its own status 1.
func TestGoRunStatus(t *testing.T) {
	_, stderr, code := run(t, repoRoot(t), "go", "run", "./cmd/resilint", "./examples/...")
	if code != 1 || !strings.HasSuffix(stderr, "exit status 3\n") {
		t.Errorf("go run: exit %d, want 1 after a last line \"exit status 3\":\n%s", code, stderr)
	}
}
