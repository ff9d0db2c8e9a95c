package golangci_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers"
	"github.com/resilint/resilint/plugin/golangci"
)

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("resilint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", got, register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if err := analysis.Validate(as); err != nil {
		t.Fatal(err)
	}
	if got, want := names(as), names(analyzers.All()); got != want {
		t.Errorf("analyzers %s, want the whole suite %s", got, want)
	}
	checkRequires(t, as)
}

// checkRequires: an analyzer of the suite required by another (ignorecheck
// requires the checks) is one of the copies golangci-lint runs, never the
// original, which would run a second time.
func checkRequires(t *testing.T, as []*analysis.Analyzer) {
	t.Helper()
	for _, a := range as {
		for _, r := range a.Requires {
			if analyzers.Lookup(r.Name) != nil && !slices.Contains(as, r) {
				t.Errorf("%s requires %s, which is not one of the analyzers returned", a.Name, r.Name)
			}
		}
	}
}

func names(as []*analysis.Analyzer) string {
	var s []string
	for _, a := range as {
		s = append(s, a.Name)
	}
	return strings.Join(s, ",")
}

// Settings as golangci-lint's loader hands them over (YAML decoded into
// maps of any) reach the analyzers' flags.
func TestSettings(t *testing.T) {
	p, err := golangci.New(map[string]any{
		"disable":        []any{"backoff"},
		"unused-ignores": true,
		"include-tests":  true,
		"idempotency":    map[string]any{"header": []any{"X-Request-Id", "Idempotency-Key"}},
		"decoratororder": map[string]any{"strict": true},
	})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // back to the defaults for the other tests
		p, _ := golangci.New(nil)
		p.BuildAnalyzers()
	})
	if got := names(as); got != "retrynesting,decoratororder,idempotency,timeoutchain,ratelimit,ignorecheck" {
		t.Errorf("analyzers %s, want all but backoff", got)
	}
	checkRequires(t, as)
	for flag, want := range map[string]string{
		"idempotency.header":    "X-Request-Id,Idempotency-Key",
		"decoratororder.strict": "true",
		"ignorecheck.unused":    "true",
	} {
		check, name, _ := strings.Cut(flag, ".")
		if got := analyzers.Lookup(check).Flags.Lookup(name).Value.String(); got != want {
			t.Errorf("%s = %q, want %q", flag, got, want)
		}
	}

	if got := analyzers.IncludeTestsFlag().String(); got != "true" {
		t.Errorf("include-tests: the switch is %s, want true", got)
	}

	// A second build with no settings restores the defaults.
	p, _ = golangci.New(map[string]any{"enable": []any{"retrynesting"}})
	as, err = p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if got := names(as); got != "retrynesting" {
		t.Errorf("enable: analyzers %s, want retrynesting", got)
	}
	if got := analyzers.Lookup("decoratororder").Flags.Lookup("strict").Value.String(); got != "false" {
		t.Errorf("decoratororder.strict = %s after a build without it, want the default false", got)
	}
	if got := analyzers.IncludeTestsFlag().String(); got != "false" {
		t.Errorf("include-tests is %s after a build without it, want the default false", got)
	}
}

// Malformed settings are errors naming the key, never panics.
func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		settings any
		want     string
	}{
		{"retrynesting", `settings: want a mapping of keys to values, got the string "retrynesting"`},
		{[]any{"a"}, "settings: want a mapping of keys to values, got a list"},
		{map[string]any{"enabled": []any{"backoff"}}, `unknown key "enabled" (want enable, disable, unused-ignores, include-tests, or a check's name for its flags: retrynesting, decoratororder, idempotency, timeoutchain, backoff, ratelimit, ignorecheck)`},
		{map[string]any{"enable": []any{"retrynestin"}}, `enable[0]: unknown check "retrynestin" (the checks are retrynesting,`},
		{map[string]any{"disable": true}, "disable: want a list of check names, got the boolean true"},
		{map[string]any{"disable": []any{1}}, "disable[0]: want a check name, got the number 1"},
		{map[string]any{"unused-ignores": "yes"}, `unused-ignores: want true or false, got the string "yes"`},
		{map[string]any{"include-tests": 1}, `include-tests: want true or false, got`},
		{map[string]any{"decoratororder": map[string]any{"strict": "yes"}}, `decoratororder.strict: want true or false, got the string "yes"`},
		{map[string]any{"decoratororder": map[string]any{"stritc": true}}, `unknown key "decoratororder.stritc" (the settings of decoratororder are: strict)`},
		{map[string]any{"decoratororder": true}, "decoratororder: want a mapping of keys to values, got the boolean true"},
		{map[string]any{"retrynesting": map[string]any{"depth": 2}}, `unknown key "retrynesting.depth" (check retrynesting has no settings)`},
		{map[string]any{"idempotency": map[string]any{"header": map[string]any{"a": "b"}}}, "idempotency.header: want a string, a number, or a list of them, got a mapping"},
		{map[string]any{"idempotency": map[string]any{"header": []any{"X-Key", []any{}}}}, "idempotency.header[1]: want a string or a number, got a list"},
		{map[any]any{1: true}, "settings: key 1 is not a string"},
	} {
		_, err := golangci.New(tc.settings)
		if err == nil {
			t.Errorf("New(%#v) succeeded, want an error with %q", tc.settings, tc.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "resilint settings: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%#v):\n got %q\nwant it to contain %q", tc.settings, err, tc.want)
		}
	}
	// A rejected value leaves the flag at its default.
	if got := analyzers.Lookup("idempotency").Flags.Lookup("header").Value.String(); got != analyzers.Lookup("idempotency").Flags.Lookup("header").DefValue {
		t.Errorf("idempotency.header = %q after a rejected setting", got)
	}
}
