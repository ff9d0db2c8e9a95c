package main_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// //resilint:ignore behaves the same standalone and under go vet: it
// silences the named checks on its line and the next, a directive
// without a reason or with an unknown check is reported, and stale
// directives only with -unused-ignores.
func TestSuppression(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module suppressed\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "client.go"), `package suppressed

import (
	"errors"
	"time"
)

func call() error { return errors.New("down") }

func inner() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(time.Second) //resilint:ignore backoff the server paces us
	}
	return err
}

func Above() error {
	var err error
	//resilint:ignore retrynesting the inner client only retries in tests
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
		//resilint:ignore backoff measured: fixed delay is fine here
		time.Sleep(time.Second)
	}
	return err
}

func NoReason() error {
	var err error
	//resilint:ignore retrynesting
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
		time.Sleep(time.Second) //resilint:ignore backof typo in the name
	}
	return err
}

func Stale() error {
	//resilint:ignore timeoutchain nothing here any more
	return call()
}
`)
	want := []*regexp.Regexp{
		regexp.MustCompile(`client\.go:36:2: resilint:ignore directive gives no reason`),
		regexp.MustCompile(`client\.go:37:2: nested retry`),
		regexp.MustCompile(`client\.go:41:14: retry delay has no jitter`),
		regexp.MustCompile(`client\.go:41:27: resilint:ignore directive names unknown check "backof" \(the checks are retrynesting, decoratororder, idempotency, timeoutchain, backoff, ratelimit\)`),
	}
	unused := regexp.MustCompile(`client\.go:47:2: resilint:ignore directive silences no timeoutchain finding on this line or the next`)
	check := func(mode string, out string, withUnused bool) {
		t.Helper()
		for _, re := range want {
			if !re.MatchString(out) {
				t.Errorf("%s: missing %s in:\n%s", mode, re, out)
			}
		}
		if got := unused.MatchString(out); got != withUnused {
			t.Errorf("%s: unused directive reported = %v, want %v:\n%s", mode, got, withUnused, out)
		}
		// The four findings above, plus the unused one: nothing else.
		n := len(regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: [^\t]`).FindAllString(out, -1))
		wantN := len(want)
		if withUnused {
			wantN++
		}
		if n != wantN {
			t.Errorf("%s: %d findings, want %d:\n%s", mode, n, wantN, out)
		}
		if strings.Contains(out, "panic") {
			t.Errorf("%s: panic:\n%s", mode, out)
		}
	}

	_, stderr, code := run(t, dir, bin, "./...")
	if code != 3 {
		t.Errorf("standalone: exit %d, want 3", code)
	}
	check("standalone", stderr, false)
	_, stderr, _ = run(t, dir, bin, "-unused-ignores", "./...")
	check("standalone -unused-ignores", stderr, true)
	_, stderr, _ = run(t, dir, bin, "-ignorecheck.unused", "./...")
	check("standalone -ignorecheck.unused", stderr, true)

	_, stderr, code = run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if code == 0 {
		t.Errorf("go vet: exit 0, want failure")
	}
	check("go vet", stderr, false)
	_, stderr, _ = run(t, dir, "go", "vet", "-vettool="+bin, "-unused-ignores", "./...")
	check("go vet -unused-ignores", stderr, true)

	// The stale directive is ignorecheck's finding, category unused, not
	// the named check's: standalone -json and go vet -json say whose.
	stdout, stderr, code := run(t, dir, bin, "-json", "-unused-ignores", "./...")
	var findings []struct{ Check, Category, Posn, Message string }
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil || code != 0 {
		t.Fatalf("-json: exit %d, %v:\n%s%s", code, err, stdout, stderr)
	}
	var stale []string
	for _, f := range findings {
		if strings.Contains(f.Message, "silences no") {
			stale = append(stale, f.Check+"/"+f.Category)
		}
	}
	if got := strings.Join(stale, " "); got != "ignorecheck/unused" {
		t.Errorf("-json: stale directive reported as %q, want ignorecheck/unused", got)
	}
	stdout, _, _ = run(t, dir, "go", "vet", "-vettool="+bin, "-unused-ignores", "-json", "./...")
	var tree map[string]map[string][]struct {
		Category, Message string
	}
	if i := strings.Index(stdout, "{"); i < 0 || json.Unmarshal([]byte(stdout[i:]), &tree) != nil {
		t.Fatalf("go vet -json: no JSON in:\n%s", stdout)
	}
	stale = nil
	for _, byCheck := range tree {
		for check, diags := range byCheck {
			for _, d := range diags {
				if strings.Contains(d.Message, "silences no") {
					stale = append(stale, check+"/"+d.Category)
				}
			}
		}
	}
	if got := strings.Join(stale, " "); got != "ignorecheck/unused" {
		t.Errorf("go vet -json: stale directive reported as %q, want ignorecheck/unused", got)
	}

	// SARIF goes through the same suite.
	stdout, _, _ = run(t, dir, bin, "-sarif", "-unused-ignores", "./...")
	log := validateSARIF(t, dir, []byte(stdout))
	var ids []string
	for _, r := range log.Runs[0].Results {
		ids = append(ids, r.RuleID)
	}
	if got := strings.Join(ids, " "); got != "ignorecheck/malformed retrynesting/nested backoff/no-jitter ignorecheck/unknown ignorecheck/unused" {
		t.Errorf("-sarif results %s", got)
	}
}
