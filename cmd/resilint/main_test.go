package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// The end-to-end tests build the real binary and run it the ways users
// do: standalone, under go vet, and for help.

var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "resilint-e2e")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "resilint")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(wd, "..", "..")
}

func run(t *testing.T, dir string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runEnv(t, dir, nil, name, args...)
}

// runEnv is run with env added to the environment.
func runEnv(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return o.String(), e.String(), code
}

// The diagnostics the demo must produce, by file:line prefix and message.
var wantExamples = []*regexp.Regexp{
	regexp.MustCompile(`checkout\.go:\d+:\d+: nested retry: retry loop makes 3 attempts, each reaching \(\*payments\.Client\)\.Charge, which retries: retryablehttp\.Client\.Do \(4 attempts\) at payments\.go:\d+: up to 12 downstream calls per request; retry at one layer only \(set RetryMax to 0 on the retryablehttp\.Client\)`),
	regexp.MustCompile(`checkout\.go:\d+:\d+: nested retry: retry\.Do makes 10 attempts, each reaching \(\*inventory\.Client\)\.Reserve, which retries: backoff\.Retry \(5 attempts\) at inventory\.go:\d+: up to 50 downstream calls per request`),
	regexp.MustCompile(`checkout\.go:\d+:\d+: nested retry: retry loop makes 2 attempts, each reaching 3 retrying calls \(up to 12 calls per attempt\): up to 24 downstream calls per request`),
}

// Findings of the other checks on the demo.
var wantExamplesOther = []*regexp.Regexp{
	regexp.MustCompile(`payments\.go:\d+:\d+: retryablehttp\.Client\.Do waits without jitter \(a client left on DefaultBackoff\)`),
	regexp.MustCompile(`checkout\.go:\d+:\d+: retry delay has no jitter`),
	regexp.MustCompile(`checkout\.go:\d+:\d+: retry loop tries again at once after a failure`),
	regexp.MustCompile(`payments\.go:\d+:\d+: retryablehttp\.Client\.Do sends POST inside a retry without an Idempotency-Key header`),
	regexp.MustCompile(`checkout\.go:\d+:\d+: \(\*Handler\)\.reserveAll \(context\.WithTimeout at inventory\.go:\d+\) sets a 5s timeout on a context that has at most 3s left \(set at checkout\.go:\d+\)`),
	regexp.MustCompile(`checkout\.go:\d+:\d+: context\.Background\(\) drops the deadline and cancellation of ctx`),
	regexp.MustCompile(`checkout\.go:\d+:\d+: retry outside a circuit breaker: retry loop \(3 attempts\) retries calls that go through \(\*pricing\.Client\)\.Quote, which calls breaker\.Breaker\.Do at pricing\.go:\d+`),
}

// Findings of the ratelimit check on the demo (also under go vet, where
// the model layers' facts cross processes).
var wantExamplesRatelimit = []*regexp.Regexp{
	regexp.MustCompile(`limiter\.go:\d+:\d+: GET of key, then INCR of it in a separate command \(not atomic\)`),
	regexp.MustCompile(`limiter\.go:\d+:\d+: 429 Too Many Requests written without a Retry-After header on this path`),
}

func TestStandalone(t *testing.T) {
	root := repoRoot(t)
	_, stderr, code := run(t, root, bin, "./examples/...")
	if code != 3 {
		t.Errorf("exit status %d, want 3 (diagnostics reported)\n%s", code, stderr)
	}
	for _, re := range wantExamples {
		if !re.MatchString(stderr) {
			t.Errorf("missing diagnostic %s in:\n%s", re, stderr)
		}
	}
	for _, re := range append(wantExamplesOther, wantExamplesRatelimit...) {
		if !re.MatchString(stderr) {
			t.Errorf("missing diagnostic %s in:\n%s", re, stderr)
		}
	}
	if n := strings.Count(stderr, "nested retry:"); n != len(wantExamples) {
		t.Errorf("%d nested-retry diagnostics, want %d:\n%s", n, len(wantExamples), stderr)
	}
	// One POST, one finding: the charge is reported in payments, where its
	// key belongs, not again at checkout's retries of Charge (those are
	// nested retries).
	if n := strings.Count(stderr, "without an Idempotency-Key header"); n != 1 {
		t.Errorf("%d findings of the charge's missing key, want 1:\n%s", n, stderr)
	}
	if regexp.MustCompile(`notifications\.go:\d+:\d+: nested`).MatchString(stderr) {
		t.Errorf("notifications retries at one layer and must not be reported:\n%s", stderr)
	}
}

func TestStandaloneJSON(t *testing.T) {
	root := repoRoot(t)
	stdout, stderr, code := run(t, root, bin, "-json", "./examples/...")
	if code != 0 {
		t.Fatalf("-json exit status %d, want 0\n%s", code, stderr)
	}
	var findings []jsonFinding
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, stdout)
	}
	var nested int
	for _, f := range findings {
		if f.Check != "retrynesting" || f.Package != "github.com/resilint/resilint/examples/checkout" {
			continue
		}
		nested++
		if len(f.Related) == 0 {
			t.Errorf("diagnostic %q has no related inner retry", f.Message)
		}
		if f.Category != "nested" || !strings.HasSuffix(f.URL, "docs/checks/retrynesting.md#nested") {
			t.Errorf("diagnostic %q: category %q, url %q", f.Message, f.Category, f.URL)
		}
	}
	if nested != 3 {
		t.Fatalf("%d retrynesting findings in checkout, want 3: %s", nested, stdout)
	}
}

// jsonFinding is one element of -json's array.
type jsonFinding struct {
	Package, Check, Category, URL, Posn, End, Message string
	Related                                           []struct{ Posn, End, Message string }
	SuggestedFixes                                    []struct {
		Message string
		Edits   []struct {
			Filename   string
			Start, End int
			New        string
		}
	} `json:"suggested_fixes"`
}

func TestGoVet(t *testing.T) {
	root := repoRoot(t)
	_, stderr, code := run(t, root, "go", "vet", "-vettool="+bin, "./examples/...")
	if code == 0 {
		t.Fatalf("go vet succeeded, want failure with diagnostics\n%s", stderr)
	}
	for _, re := range append(wantExamples, wantExamplesRatelimit...) {
		if !re.MatchString(stderr) {
			t.Errorf("go vet: missing diagnostic %s in:\n%s", re, stderr)
		}
	}
	// A clean package passes.
	_, stderr, code = run(t, root, "go", "vet", "-vettool="+bin, "./examples/notifications")
	if code != 0 {
		t.Errorf("go vet on a clean package: exit status %d\n%s", code, stderr)
	}
}

func TestHelp(t *testing.T) {
	stdout, stderr, code := run(t, repoRoot(t), bin, "help", "retrynesting")
	if code != 0 {
		t.Fatalf("help: exit status %d\n%s", code, stderr)
	}
	out := stdout + stderr
	for _, want := range []string{"retrynesting: report a retry whose attempts reach another retry", "27 requests downstream"} {
		if !strings.Contains(out, want) {
			t.Errorf("help output lacks %q:\n%s", want, out)
		}
	}
}

// Packages that do not type-check get the checker's normal error, not a
// panic, in both modes.
func TestTypeErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module broken\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "broken.go"), `package broken

func call() error { return nil }

func f() error {
	for i := 0; i < 3; i++ {
		if err := call(); err == nil {
			return undefinedThing
		}
	}
	return nil
}
`)
	_, stderr, code := run(t, dir, bin, "./...")
	if code != 1 {
		t.Errorf("standalone on broken package: exit status %d, want 1\n%s", code, stderr)
	}
	if strings.Count(stderr, "undefined: undefinedThing") != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || strings.Contains(stderr, "panic") {
		t.Errorf("standalone: want the type error once and nothing else (no failed prerequisites), got:\n%s", stderr)
	}
	for _, args := range [][]string{{"-json", "./..."}, {"-sarif", "./..."}} {
		_, stderr, code = run(t, dir, bin, args...)
		if code != 1 || strings.Count(stderr, "undefined: undefinedThing") != 1 || strings.Contains(stderr, "prerequisites") {
			t.Errorf("%s: exit %d, want 1 and the type error once:\n%s", args[0], code, stderr)
		}
	}
	_, stderr, code = run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if code == 0 || strings.Count(stderr, "undefined: undefinedThing") != 1 || strings.Contains(stderr, "prerequisites") || strings.Contains(stderr, "panic") {
		t.Errorf("go vet on broken package: exit %d, want the type error and no panic:\n%s", code, stderr)
	}
}

// Test files that do not type-check (a mock not generated yet) do not
// hide the findings of their package's other files, nor fail a run that
// does not report findings in tests; the packages that import the broken
// test variant add no errors of their own. With -include-tests they are
// errors (status 1).
func TestTestFileTypeErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module testbroken\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "p", "p.go"), `package p

import (
	"context"
	"net/http"
)

func Get(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(context.Background(), "GET", url, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}
`)
	write(t, filepath.Join(dir, "p", "p_test.go"), `package p

import "testing"

func TestGet(t *testing.T) { _ = mockNotGenerated{} }
`)
	write(t, filepath.Join(dir, "p", "x_test.go"), `package p_test

import (
	"testing"

	_ "testbroken/q"
)

func TestQ(t *testing.T) {}
`)
	write(t, filepath.Join(dir, "q", "q.go"), `package q

import "testbroken/p"

var Get = p.Get
`)
	stdout, stderr, code := run(t, dir, bin, "./...")
	if code != 3 || !strings.Contains(stdout+stderr, "p.go:9:") {
		t.Errorf("default run: exit %d, want 3 and the finding in p.go:\n%s%s", code, stdout, stderr)
	}
	if strings.Count(stderr, "undefined: mockNotGenerated") != 1 || !strings.Contains(stderr, "warning: the test files above do not type-check") || strings.Contains(stderr, "was not type-checked") {
		t.Errorf("default run: want the test file's error once, the warning, and no error for the packages importing it:\n%s", stderr)
	}
	sarif, stderr, code := run(t, dir, bin, "-sarif", "./...")
	if code != 0 || strings.Count(stderr, "undefined: mockNotGenerated") != 1 {
		t.Errorf("-sarif: exit %d, want 0 and the test file's error once:\n%s", code, stderr)
	}
	// The log says so too: a warning notification, and a run that
	// succeeded.
	if !regexp.MustCompile(`"level": "warning",\s*"message": \{\s*"text": "[^"]*undefined: mockNotGenerated`).MatchString(sarif) || !strings.Contains(sarif, `"executionSuccessful": true`) {
		t.Errorf("-sarif: want the test file's error as a warning notification of a successful run:\n%s", sarif)
	}
	stdout, stderr, code = run(t, dir, bin, "-include-tests", "./...")
	if code != 1 || strings.Count(stderr, "undefined: mockNotGenerated") != 1 || strings.Contains(stderr, "warning") || !strings.Contains(stdout+stderr, "p.go:9:") {
		t.Errorf("-include-tests: exit %d, want 1, the error once and the finding in p.go:\n%s%s", code, stdout, stderr)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The backoff fixes, applied by the real binary to a module that uses
// the real runtime/retry, must leave it compiling.
func TestFixCompiles(t *testing.T) {
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module fixme\n\ngo 1.26\n\nrequire github.com/resilint/resilint/runtime v0.0.0\n\nreplace github.com/resilint/resilint/runtime => "+filepath.Join(root, "runtime")+"\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.sum"), string(sum))
	write(t, filepath.Join(dir, "client.go"), `package fixme

import (
	"context"
	"errors"
	"time"
)

func call(ctx context.Context) error { return errors.New("down") }

func Fixed(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return err
}

func Exponential(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(1<<attempt) * 100 * time.Millisecond)
	}
	return err
}
`)
	write(t, filepath.Join(dir, "order.go"), `package fixme

import (
	"context"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/retry"
)

func Charge(ctx context.Context, b *breaker.Breaker) error {
	return retry.Do(ctx, &retry.Policy{MaxAttempts: 3}, func(ctx context.Context) error {
		return b.Do(ctx, call)
	})
}
`)
	write(t, filepath.Join(dir, "idem.go"), `package fixme

import (
	"bytes"
	"context"
	"net/http"

	"github.com/resilint/resilint/runtime/retry"
)

func Pay(ctx context.Context, c *http.Client, body []byte) error {
	return retry.Do(ctx, &retry.Policy{MaxAttempts: 3}, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return retry.HTTPError(resp)
	})
}
`)
	if _, stderr, code := run(t, dir, "go", "mod", "tidy"); code != 0 {
		t.Fatalf("go mod tidy: %s", stderr)
	}
	_, stderr, code := run(t, dir, bin, "./...")
	if code != 3 || strings.Count(stderr, "retry delay") != 2 || strings.Contains(stderr, "circuit breaker") || !strings.Contains(stderr, "sends POST inside a retry without an Idempotency-Key header") {
		t.Fatalf("before -fix: exit %d, want 3, two delay findings and none about the breaker (runtime/retry stops on open):\n%s", code, stderr)
	}
	_, stderr, code = run(t, dir, bin, "-decoratororder.strict", "./...")
	if code != 3 || !strings.Contains(stderr, "retry outside a circuit breaker") {
		t.Fatalf("strict: exit %d, want 3 and the retry-outside-breaker finding:\n%s", code, stderr)
	}
	if _, stderr, code = run(t, dir, bin, "-decoratororder.strict", "-fix", "./..."); code != 0 && code != 3 {
		t.Fatalf("-fix: exit %d\n%s", code, stderr)
	}
	idem, _ := os.ReadFile(filepath.Join(dir, "idem.go"))
	for _, want := range []string{"idempotencyKey := idempotency.NewKey()", `req.Header.Set("Idempotency-Key", idempotencyKey)`, `"github.com/resilint/resilint/runtime/idempotency"`} {
		if !strings.Contains(string(idem), want) {
			t.Errorf("idem.go lacks %q after -fix:\n%s", want, idem)
		}
	}
	order, _ := os.ReadFile(filepath.Join(dir, "order.go"))
	if !strings.Contains(string(order), "return b.Do(ctx, func(ctx context.Context) error {") {
		t.Errorf("breaker not moved outside the retry:\n%s", order)
	}
	fixed, _ := os.ReadFile(filepath.Join(dir, "client.go"))
	for _, want := range []string{"retry.Sleep(ctx, retry.FullJitter(200*time.Millisecond))", "retry.FullJitter(min(", `"github.com/resilint/resilint/runtime/retry"`} {
		if !strings.Contains(string(fixed), want) {
			t.Errorf("fixed file lacks %q:\n%s", want, fixed)
		}
	}
	if _, stderr, code = run(t, dir, "go", "build", "./..."); code != 0 {
		t.Fatalf("fixed module does not build: %s\n%s", stderr, fixed)
	}
	if _, stderr, code = run(t, dir, bin, "-decoratororder.strict", "./..."); code != 0 {
		t.Errorf("after -fix resilint still reports (exit %d):\n%s", code, stderr)
	}
}
