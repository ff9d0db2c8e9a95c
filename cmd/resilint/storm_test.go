package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func storm(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runStorm(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestStormPolicies(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := storm(t, "-mode", "restorm", "-clients", "2000", "-policy", "none,full", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"scenario restorm", "\nnone\n", "\nfull\n", `fell over again\s+yes, 3×`, "report written to"} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"report.html", "report.md", "calls.svg", "attempts.svg", "calls.png", "attempts.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestStormDefaultComparison(t *testing.T) {
	code, out, errs := storm(t, "-clients", "500", "-outage", "10s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, n := range []string{"fixed", "none", "equal", "full", "decorrelated", "default"} {
		if !strings.Contains(out, "\n"+n+"\n") {
			t.Errorf("default comparison lacks %s:\n%s", n, out)
		}
	}
}

func TestStormBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-clients", "0"}, "-clients 0"},
		{[]string{"-policy", "full,jittery"}, `unknown policy "jittery"`},
		{[]string{"-mode", "meltdown"}, `unknown mode "meltdown"`},
		{[]string{"-outage", "-5s"}, "-outage -5s"},
		{[]string{"-base", "2s", "-max", "1s"}, "-base 2s is above -max 1s"},
		{[]string{"-site", "main.go"}, "want file.go:line"},
		{[]string{"-error-rate", "3"}, "-error-rate 3"},
		{[]string{"-nope"}, "flag provided but not defined"},
	} {
		code, _, errs := storm(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// TestStormModeDefaults: the partial and store modes are about a breaker,
// so they put one in unless told not to.
func TestStormModeDefaults(t *testing.T) {
	noBreaker := regexp.MustCompile(`breaker opens / closes\s+-`)
	for _, mode := range []string{"partial", "store"} {
		code, out, errs := storm(t, "-mode", mode, "-clients", "5000", "-policy", "full")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", mode, code, errs)
		}
		if !strings.Contains(out, "breaker opens / closes") || noBreaker.MatchString(out) {
			t.Errorf("%s: no breaker at work:\n%s", mode, out)
		}
		_, out, _ = storm(t, "-mode", mode, "-clients", "5000", "-policy", "full", "-breaker=false")
		if !noBreaker.MatchString(out) {
			t.Errorf("%s -breaker=false: a breaker at work:\n%s", mode, out)
		}
	}
}
