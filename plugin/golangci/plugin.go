// Package golangci is resilint's golangci-lint v2 module plugin.
//
// Build a golangci-lint that contains it with `golangci-lint custom` and a
// .custom-gcl.yml naming this package, then enable the "resilint" linter
// of type "module" in .golangci.yml (docs/integrations.md has both files).
// The plugin runs the same suite as the resilint command, analyzers.All:
// the checks with //resilint:ignore suppression, and ignorecheck.
//
// # Settings
//
// The settings block is decoded strictly: an unknown key, an unknown
// check, or a value of the wrong type is an error that names the key.
//
//	settings:
//	  enable: [retrynesting, backoff]   # run only these checks (default: all)
//	  disable: [timeoutchain]           # switch these off
//	  unused-ignores: true              # report //resilint:ignore that silence nothing
//	  include-tests: true               # report findings in _test.go files too (default: off)
//	  idempotency:                      # a check's name: its flags, by flag name
//	    header: [Idempotency-Key, X-Request-Id]
//	  decoratororder:
//	    strict: true
//
// Under a check's name go its flags, the ones `resilint help <check>`
// lists (-idempotency.header becomes idempotency: {header: ...}). A
// boolean flag takes a boolean; other flags take a string, a number, or a
// list of them, joined with commas.
//
// golangci-lint applies no fix of a file when the suggested fixes of one
// diagnostic overlap, so the plugin keeps only the first suggested fix of
// each diagnostic, the one the resilint command's -fix applies.
package golangci

import (
	"flag"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers"
)

// Name is the linter's name in golangci-lint's configuration.
const Name = "resilint"

func init() {
	register.Plugin(Name, New)
}

// New decodes the settings golangci-lint passes (nil when the
// configuration has none) and returns the plugin.
func New(settings any) (register.LinterPlugin, error) {
	s, err := decode(settings)
	if err != nil {
		return nil, fmt.Errorf("%s settings: %w", Name, err)
	}
	return &plugin{settings: s}, nil
}

type plugin struct {
	settings *config
}

// GetLoadMode asks for type information: every check needs it.
func (*plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

// BuildAnalyzers sets the analyzers' flags and the include-tests switch
// from the settings (what is not mentioned goes back to its default) and returns the enabled analyzers,
// each keeping one suggested fix per diagnostic.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	analyzers.SetIncludeTests(p.settings.tests)
	all := analyzers.All()
	for _, a := range all {
		var err error
		a.Flags.VisitAll(func(f *flag.Flag) {
			v, ok := p.settings.flags[a.Name+"."+f.Name]
			if !ok {
				v = f.DefValue
			}
			if e := a.Flags.Set(f.Name, v); e != nil && err == nil {
				err = fmt.Errorf("%s settings: %s.%s: %v", Name, a.Name, f.Name, e)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	// Copies for golangci-lint; ignorecheck requires the checks (it
	// reads which directives silenced something), so its Requires point
	// at the copies that run, and only at the enabled ones.
	copies := make(map[*analysis.Analyzer]*analysis.Analyzer)
	for _, a := range all {
		copies[a] = oneFix(a)
	}
	var out []*analysis.Analyzer
	for _, a := range all {
		if !p.settings.enabled(a.Name) {
			continue
		}
		c := copies[a]
		var reqs []*analysis.Analyzer
		for _, r := range a.Requires {
			if rc, ok := copies[r]; !ok {
				reqs = append(reqs, r)
			} else if p.settings.enabled(r.Name) {
				reqs = append(reqs, rc)
			}
		}
		c.Requires = reqs
		out = append(out, c)
	}
	return out, nil
}

// oneFix returns a copy of a for golangci-lint: it drops all suggested
// fixes but the first of each diagnostic, and folds the related locations
// into the message (golangci-lint would make each one an issue of its
// own, detached from the finding).
func oneFix(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	run := a.Run
	w.Run = func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			if len(d.SuggestedFixes) > 1 {
				d.SuggestedFixes = d.SuggestedFixes[:1]
			}
			d.Message = foldRelated(pass.Fset, d)
			d.Related = nil
			report(d)
		}
		defer func() { pass.Report = report }()
		return run(pass)
	}
	return &w
}

// foldRelated returns d's message followed by its related locations,
// each as "file.go:line:col: message" (the file's base name, as resilint's
// messages name files).
func foldRelated(fset *token.FileSet, d analysis.Diagnostic) string {
	if len(d.Related) == 0 {
		return d.Message
	}
	var parts []string
	for _, r := range d.Related {
		posn := fset.Position(r.Pos)
		loc := filepath.Base(posn.Filename) + ":" + strconv.Itoa(posn.Line) + ":" + strconv.Itoa(posn.Column)
		if !posn.IsValid() {
			loc = "?"
		}
		parts = append(parts, loc+": "+r.Message)
	}
	return d.Message + " [related: " + strings.Join(parts, "; ") + "]"
}

// config is the decoded settings block.
type config struct {
	enable  []string          // nil: all
	disable []string          // checks switched off
	flags   map[string]string // "check.flag" → value for Flags.Set
	tests   bool              // include-tests: report findings in _test.go files
}

func (c *config) enabled(name string) bool {
	if c.enable != nil && !slices.Contains(c.enable, name) {
		return false
	}
	return !slices.Contains(c.disable, name)
}

// decode checks raw, the settings as golangci-lint's configuration loader
// produced them (maps, lists, strings, booleans, numbers), against the
// suite's checks and flags.
func decode(raw any) (*config, error) {
	c := &config{flags: make(map[string]string)}
	if raw == nil {
		return c, nil
	}
	top, err := asMap(raw, "")
	if err != nil {
		return nil, err
	}
	byName := make(map[string]*analysis.Analyzer)
	var names []string
	for _, a := range analyzers.All() {
		byName[a.Name] = a
		names = append(names, a.Name)
	}
	for _, key := range sortedKeys(top) {
		v := top[key]
		switch key {
		case "enable", "disable":
			list, err := asNames(v, key, names)
			if err != nil {
				return nil, err
			}
			if key == "enable" {
				c.enable = list
			} else {
				c.disable = list
			}
		case "include-tests":
			b, ok := v.(bool)
			if !ok {
				return nil, fmt.Errorf("%s: want true or false, got %s", key, describe(v))
			}
			c.tests = b
		case "unused-ignores":
			b, ok := v.(bool)
			if !ok {
				return nil, fmt.Errorf("%s: want true or false, got %s", key, describe(v))
			}
			c.flags["ignorecheck.unused"] = strconv.FormatBool(b)
		default:
			a := byName[key]
			if a == nil {
				return nil, fmt.Errorf("unknown key %q (want enable, disable, unused-ignores, include-tests, or a check's name for its flags: %s)", key, strings.Join(names, ", "))
			}
			if err := decodeFlags(c, a, v); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

func decodeFlags(c *config, a *analysis.Analyzer, raw any) error {
	m, err := asMap(raw, a.Name)
	if err != nil {
		return err
	}
	// -<check>.mesh holds the routes resilint -mesh reads from manifests:
	// not a setting.
	var known []string
	a.Flags.VisitAll(func(f *flag.Flag) {
		if f.Name != "mesh" {
			known = append(known, f.Name)
		}
	})
	for _, name := range sortedKeys(m) {
		key := a.Name + "." + name
		f := a.Flags.Lookup(name)
		if name == "mesh" {
			f = nil
		}
		if f == nil {
			if len(known) == 0 {
				return fmt.Errorf("unknown key %q (check %s has no settings)", key, a.Name)
			}
			return fmt.Errorf("unknown key %q (the settings of %s are: %s)", key, a.Name, strings.Join(known, ", "))
		}
		v := m[name]
		var s string
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			bv, ok := v.(bool)
			if !ok {
				return fmt.Errorf("%s: want true or false, got %s", key, describe(v))
			}
			s = strconv.FormatBool(bv)
		} else {
			s, err = flagText(v, key)
			if err != nil {
				return err
			}
		}
		// Check the value now, so that New reports it, and restore.
		if err := a.Flags.Set(name, s); err != nil {
			a.Flags.Set(name, f.DefValue)
			return fmt.Errorf("%s: %v", key, err)
		}
		a.Flags.Set(name, f.DefValue)
		c.flags[key] = s
	}
	return nil
}

// flagText turns a scalar or a list of scalars into a flag's text.
func flagText(v any, key string) (string, error) {
	if list, ok := v.([]any); ok {
		var parts []string
		for i, e := range list {
			s, ok := scalar(e)
			if !ok {
				return "", fmt.Errorf("%s[%d]: want a string or a number, got %s", key, i, describe(e))
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ","), nil
	}
	if list, ok := v.([]string); ok {
		return strings.Join(list, ","), nil
	}
	s, ok := scalar(v)
	if !ok {
		return "", fmt.Errorf("%s: want a string, a number, or a list of them, got %s", key, describe(v))
	}
	return s, nil
}

func scalar(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(v), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32), true
	}
	return "", false
}

// asNames decodes a list of check names.
func asNames(v any, key string, known []string) ([]string, error) {
	var list []string
	switch v := v.(type) {
	case []string:
		list = v
	case []any:
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%s[%d]: want a check name, got %s", key, i, describe(e))
			}
			list = append(list, s)
		}
	case string:
		list = []string{v}
	default:
		return nil, fmt.Errorf("%s: want a list of check names, got %s", key, describe(v))
	}
	for i, s := range list {
		if !slices.Contains(known, s) {
			return nil, fmt.Errorf("%s[%d]: unknown check %q (the checks are %s)", key, i, s, strings.Join(known, ", "))
		}
	}
	if list == nil {
		list = []string{}
	}
	return list, nil
}

// asMap accepts the map shapes YAML and JSON decoders produce.
func asMap(v any, key string) (map[string]any, error) {
	switch v := v.(type) {
	case map[string]any:
		return v, nil
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			s, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("%s: key %v is not a string", orTop(key), k)
			}
			m[s] = e
		}
		return m, nil
	}
	return nil, fmt.Errorf("%s: want a mapping of keys to values, got %s", orTop(key), describe(v))
}

func orTop(key string) string {
	if key == "" {
		return "settings"
	}
	return key
}

func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "nothing"
	case string:
		return fmt.Sprintf("the string %q", v)
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	case []any, []string:
		return "a list"
	case map[string]any, map[any]any:
		return "a mapping"
	}
	if s, ok := scalar(v); ok {
		return "the number " + s
	}
	return fmt.Sprintf("a value of type %T", v)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
