package golangci_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The end-to-end test builds a real golangci-lint with the plugin and runs
// it on a copy of examples/. It takes minutes the first time (golangci-lint
// and its linters compile), so it runs only when asked:
//
//	RESILINT_E2E_GOLANGCI=1 go test -run E2E -v ./plugin/golangci
//
// RESILINT_E2E_GOLANGCI_DIR=<dir> keeps the generated module and binary
// there between runs instead of in a temporary directory.
//
// `golangci-lint custom` clones golangci-lint's repository, which needs
// git and GitHub; the test builds golangci-lint v2.15.0 with the plugin
// through the module proxy alone, with the repository's own command for
// that, plugin/golangci/buildgcl.
const golangciVersion = "v2.15.0"

func TestE2EGolangciLint(t *testing.T) {
	if os.Getenv("RESILINT_E2E_GOLANGCI") == "" {
		t.Skip("set RESILINT_E2E_GOLANGCI=1 to build golangci-lint " + golangciVersion + " with the plugin (slow)")
	}
	root := repoRoot(t)
	gcl := buildGolangci(t, root)

	// A copy of the demo, as its own checkout: go.mod, examples, and the
	// runtime packages the examples and the fixes import.
	work := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		copyFile(t, filepath.Join(root, f), filepath.Join(work, f))
	}
	for _, d := range []string{"examples", "runtime"} {
		copyTree(t, filepath.Join(root, d), filepath.Join(work, d))
	}
	cache := t.TempDir()
	lint := func(config string, args ...string) (string, int) {
		t.Helper()
		writeFile(t, filepath.Join(work, ".golangci.yml"), config)
		cmd := exec.Command(gcl, append([]string{"run"}, args...)...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+cache, "GOFLAGS=-mod=readonly")
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}

	start := time.Now()
	out, code := lint(config(""), "./examples/...")
	t.Logf("golangci-lint run on examples/: %v", time.Since(start).Round(time.Millisecond))
	if code != 1 {
		t.Errorf("exit status %d, want 1 (issues found)\n%s", code, out)
	}
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`examples/checkout/checkout\.go:\d+:\d+: retrynesting: nested retry: retry loop makes 3 attempts, each reaching \(\*payments\.Client\)\.Charge, which retries: retryablehttp\.Client\.Do \(4 attempts\) at payments\.go:\d+: up to 12 downstream calls per request.* \(resilint\)`),
		regexp.MustCompile(`examples/checkout/checkout\.go:\d+:\d+: backoff: retry delay has no jitter.* \(resilint\)`),
		regexp.MustCompile(`examples/payments/payments\.go:\d+:\d+: idempotency: retryablehttp\.Client\.Do sends POST inside a retry without an Idempotency-Key header.* \(resilint\)`),
		regexp.MustCompile(`examples/checkout/checkout\.go:\d+:\d+: decoratororder: retry outside a circuit breaker.* \(resilint\)`),
		regexp.MustCompile(`examples/limiter/limiter\.go:\d+:\d+: ratelimit: GET of key, then INCR of it in a separate command \(not atomic\).* \(resilint\)`),
		regexp.MustCompile(`examples/limiter/limiter\.go:\d+:\d+: ratelimit: 429 Too Many Requests written without a Retry-After header.* \(resilint\)`),
	} {
		if !re.MatchString(out) {
			t.Errorf("missing %s in:\n%s", re, out)
		}
	}
	// One POST, one finding: reported in payments, not again at checkout's
	// retries of Charge.
	if n := strings.Count(out, ": idempotency: "); n != 1 {
		t.Errorf("%d idempotency issues, want 1:\n%s", n, out)
	}
	if n := strings.Count(out, ": retrynesting: nested retry:"); n != 3 {
		t.Errorf("%d nested-retry issues, want 3:\n%s", n, out)
	}
	// Related locations are part of their finding, not issues of their own.
	if strings.Contains(out, "related information") || !strings.Contains(out, "[related: ") {
		t.Errorf("related locations not folded into the findings:\n%s", out)
	}

	// Settings reach the analyzers: switched off, a check reports nothing.
	out, _ = lint(config("disable: [backoff, idempotency]"), "./examples/...")
	if strings.Contains(out, "jitter") || strings.Contains(out, "Idempotency-Key") || !strings.Contains(out, "nested retry") {
		t.Errorf("with backoff and idempotency disabled:\n%s", out)
	}

	// //resilint:ignore works inside golangci-lint too: the directive
	// silences the nested retry; one without a reason is reported.
	if err := os.MkdirAll(filepath.Join(work, "examples", "suppressed"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(work, "examples", "suppressed", "suppressed.go"), suppressedGo)
	out, _ = lint(config("disable: [backoff]"), "./examples/suppressed/...")
	if strings.Contains(out, "suppressed.go:21:") || !strings.Contains(out, "suppressed.go:32:2: ignorecheck: resilint:ignore directive gives no reason") || !strings.Contains(out, "suppressed.go:33:2: retrynesting: nested retry") {
		t.Errorf("suppression under golangci-lint: want line 21 silenced, the directive at 32 reported and the retry at 33 kept:\n%s", out)
	}
	if err := os.RemoveAll(filepath.Join(work, "examples", "suppressed")); err != nil {
		t.Fatal(err)
	}

	// Malformed settings: a clear message naming the key, no panic.
	out, code = lint(config("idempotency:\n            hedaer: X-Key"), "./examples/...")
	if code == 0 || !strings.Contains(out, `resilint settings: unknown key "idempotency.hedaer" (the settings of idempotency are: header)`) || strings.Contains(out, "panic") {
		t.Errorf("malformed settings: exit %d, want an error naming idempotency.hedaer:\n%s", code, out)
	}

	// --fix applies the suggested fixes, and the demo still builds.
	before := readFile(t, filepath.Join(work, "examples", "checkout", "checkout.go"))
	out, code = lint(config(""), "--fix", "./examples/...")
	if code != 0 && code != 1 {
		t.Fatalf("--fix: exit status %d\n%s", code, out)
	}
	after := readFile(t, filepath.Join(work, "examples", "checkout", "checkout.go"))
	if after == before || !strings.Contains(after, "retry.FullJitter(") || !strings.Contains(after, `"github.com/resilint/resilint/runtime/retry"`) {
		t.Errorf("--fix did not wrap checkout.go's delays in retry.FullJitter:\n%s", after)
	}
	payments := readFile(t, filepath.Join(work, "examples", "payments", "payments.go"))
	if !strings.Contains(payments, "Idempotency-Key") {
		t.Errorf("--fix did not set an idempotency key in payments.go:\n%s", payments)
	}
	build := exec.Command("go", "build", "./examples/...")
	build.Dir = work
	build.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("examples do not build after --fix: %v\n%s", err, out)
	}
	out, _ = lint(config(""), "./examples/...")
	if strings.Contains(out, "has no jitter") {
		t.Errorf("delays still without jitter after --fix:\n%s", out)
	}
}

const suppressedGo = `package suppressed

import "errors"

func call() error { return errors.New("down") }

func inner() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}

// Silenced: the directive is on the line above the outer retry (21).
func Silenced() error {
	var err error
	//resilint:ignore retrynesting inner retries only in tests
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

// Reported twice: the directive has no reason.
func NoReason() error {
	var err error
	//resilint:ignore retrynesting
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}
`

// config returns a .golangci.yml that runs only the resilint plugin, with
// settings (YAML, indented under settings:) if any.
func config(settings string) string {
	s := `version: "2"
linters:
  default: none
  enable:
    - resilint
  settings:
    custom:
      resilint:
        type: module
        description: resilience anti-patterns (retries, breakers, timeouts, idempotency)
`
	if settings != "" {
		s += "        settings:\n          " + settings + "\n"
	}
	return s + `issues:
  max-issues-per-linter: 0
  max-same-issues: 0
  uniq-by-line: false
`
}

// buildGolangci builds golangci-lint with the plugin the way users are
// told to (docs/integrations.md): go run ./plugin/golangci/buildgcl.
func buildGolangci(t *testing.T, root string) string {
	t.Helper()
	dir := os.Getenv("RESILINT_E2E_GOLANGCI_DIR")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "custom-gcl")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	start := time.Now()
	cmd := exec.Command("go", "run", "./plugin/golangci/buildgcl", "-o", bin, "-work", filepath.Join(dir, "module"))
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go run ./plugin/golangci/buildgcl: %v\n%s", err, out.String())
	}
	t.Logf("go run ./plugin/golangci/buildgcl: %v", time.Since(start).Round(time.Millisecond))
	return bin
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	writeFile(t, to, readFile(t, from))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
