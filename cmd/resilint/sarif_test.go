package main_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/resilint/resilint/analyzers"
)

var update = flag.Bool("update", false, "rewrite the golden files of the SARIF tests")

// The SARIF log of the demo is stable: compare it with the golden file
// (go test ./cmd/resilint -run TestSARIFGolden -update rewrites it after
// a deliberate change of the findings or their wording).
func TestSARIFGolden(t *testing.T) {
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, root, bin, "-sarif", "./examples/...")
	if code != 0 {
		t.Fatalf("-sarif: exit status %d, want 0\n%s", code, stderr)
	}
	log := validateSARIF(t, root, []byte(stdout))
	if len(log.Runs[0].Results) < len(wantExamples)+len(wantExamplesOther) {
		t.Errorf("%d results, want at least %d", len(log.Runs[0].Results), len(wantExamples)+len(wantExamplesOther))
	}
	for _, re := range append(wantExamples, wantExamplesOther...) {
		msg := regexp.MustCompile(`^.*?\\d\+: `).ReplaceAllString(re.String(), "")
		found := false
		for _, r := range log.Runs[0].Results {
			found = found || regexp.MustCompile(msg).MatchString(r.Message.Text)
		}
		if !found {
			t.Errorf("no result matches %s", msg)
		}
	}

	got := normalizeSARIF(t, root, stdout)
	golden := filepath.Join("testdata", "examples.sarif.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("SARIF for examples/ differs from %s (run with -update after a deliberate change):\n%s", golden, lineDiff(string(want), got))
	}
}

// normalizeSARIF replaces the machine's paths and, after checking that
// each rule's help is its analyzer's documentation, the help text (so
// that documentation edits do not churn the golden file).
func normalizeSARIF(t *testing.T, root, s string) string {
	t.Helper()
	var log map[string]any
	if err := json.Unmarshal([]byte(s), &log); err != nil {
		t.Fatal(err)
	}
	run := log["runs"].([]any)[0].(map[string]any)
	rules := run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)
	for _, r := range rules {
		r := r.(map[string]any)
		name, _, _ := strings.Cut(r["id"].(string), "/")
		help := r["help"].(map[string]any)
		if a := analyzers.Lookup(name); a == nil || help["text"] != a.Doc {
			t.Errorf("rule %s: help is not the Doc of analyzer %s", r["id"], name)
		}
		help["text"] = "(the Doc of " + name + ")"
	}
	// The tool's version depends on how the test binary was built (VCS
	// stamping): not part of the golden output.
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	if v, _ := driver["version"].(string); v == "" {
		t.Errorf("tool.driver.version is empty")
	}
	delete(driver, "semanticVersion")
	delete(driver, "version")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		t.Fatal(err)
	}
	rootURI := (&url.URL{Scheme: "file", Path: filepath.ToSlash(root)}).String()
	return strings.ReplaceAll(buf.String(), rootURI, "file:///SRCROOT")
}

// lineDiff shows the first lines where two texts differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + itoa(i+1) + ":\n- " + wl + "\n+ " + gl
		}
	}
	return ""
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// The SARIF 2.1.0 subset resilint emits, decoded strictly: a property
// outside it fails the test, and the required ones are checked below.
type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name            string `json:"name"`
				InformationURI  string `json:"informationUri"`
				Version         string `json:"version"`
				SemanticVersion string `json:"semanticVersion"`
				Rules           []struct {
					ID                   string       `json:"id"`
					ShortDescription     sarifMessage `json:"shortDescription"`
					FullDescription      sarifMessage `json:"fullDescription"`
					Help                 sarifMessage `json:"help"`
					HelpURI              string       `json:"helpUri"`
					DefaultConfiguration struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds"`
		Invocations        []struct {
			ExecutionSuccessful        bool `json:"executionSuccessful"`
			ToolExecutionNotifications []struct {
				Level   string       `json:"level"`
				Message sarifMessage `json:"message"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results    []sarifResult `json:"results"`
		ColumnKind string        `json:"columnKind"`
	} `json:"runs"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations"`
	Fixes            []struct {
		Description     sarifMessage `json:"description"`
		ArtifactChanges []struct {
			ArtifactLocation sarifArtifact `json:"artifactLocation"`
			Replacements     []struct {
				DeletedRegion   sarifRegion   `json:"deletedRegion"`
				InsertedContent *sarifMessage `json:"insertedContent"`
			} `json:"replacements"`
		} `json:"artifactChanges"`
	} `json:"fixes"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifLocation struct {
	ID               *int `json:"id"`
	PhysicalLocation struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	} `json:"physicalLocation"`
	Message *sarifMessage `json:"message"`
}

// validateSARIF decodes a log strictly and checks what code scanning
// relies on: version, rules with help URIs, every ruleId defined,
// repository-relative locations whose 1-based regions exist in the files.
func validateSARIF(t *testing.T, root string, data []byte) *sarifLog {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var log sarifLog
	if err := dec.Decode(&log); err != nil {
		t.Fatalf("SARIF does not decode strictly: %v\n%s", err, data)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("version %q, schema %q, %d runs: want 2.1.0, its schema, one run", log.Version, log.Schema, len(log.Runs))
	}
	r := log.Runs[0]
	if r.Tool.Driver.Name != "resilint" || r.Tool.Driver.InformationURI == "" {
		t.Errorf("driver %+v lacks name or informationUri", r.Tool.Driver)
	}
	if r.ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q", r.ColumnKind)
	}
	base, ok := r.OriginalURIBaseIDs["%SRCROOT%"]
	if !ok || !strings.HasPrefix(base.URI, "file:///") || !strings.HasSuffix(base.URI, "/") {
		t.Errorf("originalUriBaseIds[%%SRCROOT%%] = %+v, want a file URI of a directory", base)
	}
	if len(r.Invocations) != 1 {
		t.Errorf("%d invocations, want 1", len(r.Invocations))
	}
	ruleIndex := make(map[string]int)
	for i, rule := range r.Tool.Driver.Rules {
		if _, dup := ruleIndex[rule.ID]; dup {
			t.Errorf("rule %s defined twice", rule.ID)
		}
		ruleIndex[rule.ID] = i
		u, err := url.Parse(rule.HelpURI)
		if err != nil || u.Scheme != "https" {
			t.Errorf("rule %s: helpUri %q is not an absolute https URL", rule.ID, rule.HelpURI)
		}
		if rule.ShortDescription.Text == "" || rule.FullDescription.Text == "" || rule.Help.Text == "" {
			t.Errorf("rule %s: empty description or help", rule.ID)
		}
		if rule.DefaultConfiguration.Level != "warning" {
			t.Errorf("rule %s: default level %q", rule.ID, rule.DefaultConfiguration.Level)
		}
	}
	lines := make(map[string][]string)
	checkRegion := func(what string, a sarifArtifact, g sarifRegion) {
		t.Helper()
		if a.URIBaseID != "%SRCROOT%" || strings.Contains(a.URI, ":") || strings.HasPrefix(a.URI, "/") {
			t.Errorf("%s: artifact %+v is not relative to %%SRCROOT%%", what, a)
			return
		}
		if g.StartLine < 1 || g.StartColumn < 1 || g.EndLine < g.StartLine || g.EndLine == g.StartLine && g.EndColumn < g.StartColumn {
			t.Errorf("%s: region %+v is not 1-based and ordered", what, g)
		}
		path, _ := url.PathUnescape(a.URI)
		ls, ok := lines[path]
		if !ok {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
			if err != nil {
				t.Errorf("%s: %v", what, err)
			}
			ls = strings.Split(string(data), "\n")
			lines[path] = ls
		}
		if g.EndLine > len(ls) || g.StartColumn > len(ls[g.StartLine-1])+1 {
			t.Errorf("%s: region %+v outside %s", what, g, path)
		}
	}
	for i, res := range r.Results {
		what := "result " + itoa(i) + " (" + res.RuleID + ")"
		idx, ok := ruleIndex[res.RuleID]
		if !ok {
			t.Errorf("%s: ruleId not defined", what)
		} else if idx != res.RuleIndex {
			t.Errorf("%s: ruleIndex %d, want %d", what, res.RuleIndex, idx)
		}
		if res.Level != "warning" || res.Message.Text == "" || len(res.Locations) != 1 {
			t.Errorf("%s: level %q, message %q, %d locations", what, res.Level, res.Message.Text, len(res.Locations))
			continue
		}
		checkRegion(what, res.Locations[0].PhysicalLocation.ArtifactLocation, res.Locations[0].PhysicalLocation.Region)
		ids := make(map[int]bool)
		for _, rel := range res.RelatedLocations {
			if rel.ID == nil || ids[*rel.ID] || rel.Message == nil || rel.Message.Text == "" {
				t.Errorf("%s: related location without a unique id or a message: %+v", what, rel)
				continue
			}
			ids[*rel.ID] = true
			checkRegion(what+" related", rel.PhysicalLocation.ArtifactLocation, rel.PhysicalLocation.Region)
		}
		for _, fix := range res.Fixes {
			if fix.Description.Text == "" || len(fix.ArtifactChanges) == 0 {
				t.Errorf("%s: fix without description or changes", what)
			}
			for _, ch := range fix.ArtifactChanges {
				if len(ch.Replacements) == 0 {
					t.Errorf("%s: artifact change without replacements", what)
				}
				for _, rep := range ch.Replacements {
					if rep.InsertedContent == nil {
						t.Errorf("%s: replacement without insertedContent", what)
					}
					checkRegion(what+" fix", ch.ArtifactLocation, rep.DeletedRegion)
				}
			}
		}
	}
	return &log
}

// Columns are UTF-16 code units, paths relative to the module (no Git
// work tree in a temporary directory), and a package that does not
// type-check still yields a valid log with a failed invocation.
func TestSARIFColumnsAndErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module sarifcols\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "cols.go"), `package sarifcols

import (
	"errors"
	"time"
)

func call() error { return errors.New("down") }

func F() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		/* é😀 */ time.Sleep(time.Second)
	}
	return err
}
`)
	stdout, stderr, code := run(t, dir, bin, "-sarif", "./...")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	log := validateSARIF(t, dir, []byte(stdout))
	var found bool
	for _, r := range log.Runs[0].Results {
		if r.RuleID == "backoff/no-jitter" {
			found = true
			loc := r.Locations[0].PhysicalLocation
			// Two tabs, "/* ", é (2 bytes, 1 unit), 😀 (4 bytes, 2 units),
			// " */ time.Sleep(", then the argument: byte column 27, UTF-16
			// column 24.
			if loc.ArtifactLocation.URI != "cols.go" || loc.Region.StartLine != 16 || loc.Region.StartColumn != 24 {
				t.Errorf("location %+v, want cols.go line 16 column 24 (UTF-16)", loc)
			}
		}
	}
	if !found {
		t.Errorf("no backoff/no-jitter result:\n%s", stdout)
	}

	// Switching a check off works as in the standalone mode.
	stdout, _, _ = run(t, dir, bin, "-sarif", "-backoff=false", "./...")
	if strings.Contains(stdout, `"backoff/`) {
		t.Errorf("-backoff=false still reports backoff:\n%s", stdout)
	}

	write(t, filepath.Join(dir, "broken.go"), "package sarifcols\n\nvar _ = undefinedThing\n")
	stdout, stderr, code = run(t, dir, bin, "-sarif", "./...")
	if code != 1 || !strings.Contains(stderr, "undefined: undefinedThing") || strings.Contains(stderr, "panic") {
		t.Errorf("broken package: exit %d, want 1 and the type error\n%s", code, stderr)
	}
	log = validateSARIF(t, dir, []byte(stdout))
	if inv := log.Runs[0].Invocations[0]; inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) == 0 {
		t.Errorf("broken package: invocation %+v, want unsuccessful with the error", inv)
	}

	for _, bad := range [][]string{{"-sarif", "-fix", "./..."}, {"-sarif", "-json", "./..."}, {"-sarif"}, {"-sarif", "-nosuchflag", "./..."}} {
		_, stderr, code = run(t, dir, bin, bad...)
		if code != 2 || strings.Contains(stderr, "panic") {
			t.Errorf("%v: exit %d, want 2 (usage)\n%s", bad, code, stderr)
		}
	}
}
