package main_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Every suggested fix, applied, must compile, pass go vet, remove the
// finding it fixes and make no finding of any check appear: -fix is run on
// a copy of every fixture package and of examples/ (again while it still
// fixes something), then go build, go vet and the suite itself.

// TestFixAllFixtures applies every fix of every fixture package (GOPATH
// layout, third-party APIs as stubs).
func TestFixAllFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and analyzes every fixture twice")
	}
	root := repoRoot(t)
	gopath := t.TempDir()
	src := filepath.Join(gopath, "src")
	copyTree(t, filepath.Join(root, "testdata", "src"), src, nil)
	var patterns []string
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		// The stubs of third-party APIs are at their import paths.
		if e.IsDir() && !strings.Contains(e.Name(), ".") {
			patterns = append(patterns, e.Name()+"/...")
		}
	}
	env := []string{"GO111MODULE=off", "GOPATH=" + gopath, "GOFLAGS=", "GOWORK=off"}
	fixAll(t, src, env, patterns)
}

// TestFixAllExamples applies every fix of the demo service, in a copy of the
// module (examples/ imports the runtime from the same module).
func TestFixAllExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and analyzes the demo twice")
	}
	root := repoRoot(t)
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, name), string(data))
	}
	skipTests := func(path string) bool { return strings.HasSuffix(path, "_test.go") }
	copyTree(t, filepath.Join(root, "examples"), filepath.Join(dir, "examples"), nil)
	copyTree(t, filepath.Join(root, "runtime"), filepath.Join(dir, "runtime"), skipTests)
	fixAll(t, dir, []string{"GOWORK=off", "GOFLAGS=-mod=mod"}, []string{"./examples/..."})

	// The fixes docs/checks quote for the demo: retrynesting.md (checkout.go)
	// and ratelimit.md (limiter.go).
	for _, want := range []struct{ file, text string }{
		{"examples/checkout/checkout.go", "const maxChargeAttempts = 1\n"},
		{"examples/checkout/checkout.go", "\tfor i := 0; i < 1; i++ {\n"},
		{"examples/checkout/checkout.go", "}, retrygo.Context(ctx), retrygo.Attempts(1))"},
		{"examples/limiter/limiter.go", "\t\t\tw.Header().Set(\"Retry-After\", \"60\")\n\t\t\thttp.Error(w, \"rate limited\", http.StatusTooManyRequests)\n"},
	} {
		data, err := os.ReadFile(filepath.Join(dir, want.file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), want.text) {
			t.Errorf("%s after the fixes: no %q\n%s", want.file, want.text, data)
		}
	}
}

// The demo's findings that come with a fix. Issue 12 asked for at least
// 11 of the 14 findings on examples/ of the time, every check counted;
// the 503 of a failed dependency, which had none, is no longer reported
// (only a 503 that sheds load is), which leaves 13. Left without one: the
// inner timeout set by a callee in another package (its fix is an edit in
// that package, which a finding reported at the caller cannot make under
// go vet) and the Redis read-modify-write (the atomic version depends on
// what the commands decide).
func TestExamplesFixCount(t *testing.T) {
	stdout, stderr, code := run(t, repoRoot(t), bin, "-json", "./examples/...")
	if code != 0 {
		t.Fatalf("-json: exit %d\n%s", code, stderr)
	}
	var fs []jsonFinding
	if err := json.Unmarshal([]byte(stdout), &fs); err != nil {
		t.Fatal(err)
	}
	var without []string
	for _, f := range fs {
		if len(f.SuggestedFixes) == 0 {
			without = append(without, f.Posn+": "+f.Check+"/"+f.Category)
		}
	}
	fixed := len(fs) - len(without)
	t.Logf("%d of %d findings on examples/ have a fix; without: %q", fixed, len(fs), without)
	if len(fs) != 13 || fixed < 11 {
		t.Errorf("%d of %d findings on examples/ have a fix, want at least 11 of 13; without a fix:\n%s", fixed, len(fs), strings.Join(without, "\n"))
	}
}

// findingKey groups findings by file, check and category: positions and
// the numbers in messages move when a fix changes the file.
type findingKey struct{ file, check, category string }

func (k findingKey) String() string { return k.file + ": " + k.check + "/" + k.category }

// fixAll runs -fix in dir until it fixes nothing more, then checks that the
// result builds, vets, and has no finding that was not there, unfixed,
// before.
func fixAll(t *testing.T, dir string, env, patterns []string) {
	t.Helper()
	before := findings(t, dir, env, patterns)
	// Fixtures may hold what go vet reports on purpose: only what is new
	// after the fixes counts.
	_, vetBefore, _ := runEnv(t, dir, env, "go", append([]string{"vet"}, patterns...)...)
	if len(before) == 0 {
		t.Fatal("no findings before the fixes: the test tests nothing")
	}
	unfixed := map[findingKey]int{}
	nfix := 0
	for _, f := range before {
		if len(f.SuggestedFixes) == 0 {
			unfixed[keyOf(dir, f)]++
		} else {
			nfix++
		}
	}
	if nfix == 0 {
		t.Fatal("no finding has a fix")
	}
	for round := 1; ; round++ {
		_, stderr, code := runEnv(t, dir, env, bin, append([]string{"-fix"}, patterns...)...)
		if code == 1 {
			t.Fatalf("-fix, round %d: exit 1\n%s", round, stderr)
		}
		m := regexp.MustCompile(`fixed (\d+) of`).FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("-fix, round %d: no report\n%s", round, stderr)
		}
		if m[1] == "0" {
			break
		}
		if round == 4 {
			t.Fatalf("-fix still fixes findings after %d rounds:\n%s", round, stderr)
		}
	}
	if _, stderr, code := runEnv(t, dir, env, "go", append([]string{"build"}, patterns...)...); code != 0 {
		t.Errorf("go build after the fixes:\n%s", stderr)
	}
	if _, vetAfter, code := runEnv(t, dir, env, "go", append([]string{"vet"}, patterns...)...); code != 0 {
		old := vetMessages(vetBefore)
		for _, m := range vetMessages(vetAfter) {
			if !slices.Contains(old, m) {
				t.Errorf("go vet after the fixes: %s", m)
			}
		}
	}
	after := findings(t, dir, env, patterns)
	left := map[findingKey]int{}
	for _, f := range after {
		left[keyOf(dir, f)]++
	}
	var bad []string
	for k, n := range left {
		if n > unfixed[k] {
			var msgs []string
			for _, f := range after {
				if keyOf(dir, f) == k {
					msgs = append(msgs, "\t"+f.Posn+": "+f.Message)
				}
			}
			bad = append(bad, fmt.Sprintf("%s: %d after the fixes, %d unfixed before\n%s", k, n, unfixed[k], strings.Join(msgs, "\n")))
		}
	}
	slices.Sort(bad)
	for _, b := range bad {
		t.Error(b)
	}
	t.Logf("%d findings, %d with a fix; %d left after the fixes", len(before), nfix, len(after))
}

// vetMessages are go vet's complaints without their line and column.
func vetMessages(out string) []string {
	var ms []string
	pos := regexp.MustCompile(`^(\S+\.go):\d+:\d+: `)
	for _, l := range strings.Split(out, "\n") {
		if m := pos.FindStringSubmatch(l); m != nil {
			ms = append(ms, m[1]+": "+l[len(m[0]):])
		}
	}
	return ms
}

func keyOf(dir string, f jsonFinding) findingKey {
	file := f.Posn
	if i := strings.LastIndex(file, ".go:"); i >= 0 {
		file = file[:i+len(".go")]
	}
	if rel, err := filepath.Rel(dir, file); err == nil {
		file = rel
	}
	return findingKey{filepath.ToSlash(file), f.Check, f.Category}
}

func findings(t *testing.T, dir string, env, patterns []string) []jsonFinding {
	t.Helper()
	stdout, stderr, code := runEnv(t, dir, env, bin, append([]string{"-json"}, patterns...)...)
	if code != 0 {
		t.Fatalf("-json: exit %d\n%s", code, stderr)
	}
	var fs []jsonFinding
	if err := json.Unmarshal([]byte(stdout), &fs); err != nil {
		t.Fatalf("-json: %v\n%s", err, stdout)
	}
	return fs
}

// copyTree copies the regular files under from to to, except those skip
// says to leave out.
func copyTree(t *testing.T, from, to string, skip func(string) bool) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() || skip != nil && skip(path) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
