package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// The -sarif mode: the standalone checker's analysis (checker.Analyze on
// packages loaded with go/packages), written as one SARIF 2.1.0 log on
// standard output in the shape GitHub code scanning ingests.
//
// main dispatches here, instead of to the text and JSON output of
// runStandalone, when the flags before the first package include -sarif.
// This mode takes the same analysis flags as the standalone mode
// (-<check>=false, -<check>.<flag>, -test, -unused-ignores) and rejects
// the output flags that make no sense with it.

// sarifRequested reports whether the flags in args (up to the first
// argument that is not a flag) include -sarif or -sarif=true.
func sarifRequested(args []string) bool {
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			return false
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "sarif" {
			if !hasVal {
				return true
			}
			b, err := strconv.ParseBool(val)
			return err == nil && b
		}
	}
	return false
}

// runSARIF parses args, analyzes the packages and writes the SARIF log to
// stdout. It returns the exit status: 0 when the log was written and the
// analysis succeeded, whether or not it found anything (as with -json);
// 1 when the packages do not load or type-check, or the flags are wrong
// (the log is still written when there is anything to write); 2 for bad
// usage.
func runSARIF(args []string, all []*analysis.Analyzer, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("resilint -sarif", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("sarif", true, "write SARIF 2.1.0 to standard output")
	tests := fs.Bool("test", true, "analyze test files too")
	mesh := fs.String("mesh", "", "also check the Istio and Envoy configuration in this file or directory")
	for _, name := range []string{"json", "fix", "diff"} {
		fs.Bool(name, false, "not with -sarif")
	}
	fs.Int("c", -1, "not with -sarif")
	enable := make(map[*analysis.Analyzer]*triState)
	for _, a := range all {
		enable[a] = new(triState)
		fs.Var(enable[a], a.Name, fmt.Sprintf("enable %q analysis", a.Name))
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	registerAliases(fs, all)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	for _, name := range []string{"json", "fix", "diff", "c"} {
		if isSet(fs, name) {
			fmt.Fprintf(stderr, "resilint: -%s cannot be combined with -sarif\n", name)
			return 2
		}
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: resilint -sarif [flags] packages...")
		return 2
	}
	if len(fs.Args()) == 1 && strings.HasSuffix(fs.Arg(0), ".cfg") {
		fmt.Fprintln(stderr, "resilint: -sarif is for the standalone mode, not for go vet")
		return 2
	}
	analyzers := selectAnalyzers(all, enable)
	meshFindings, meshBad := prepareMesh(*mesh, all, stderr)

	res, err := analyze(fs.Args(), analyzers, options{tests: *tests})
	if err != nil {
		fmt.Fprintf(stderr, "resilint: %v\n", err)
		return 1
	}
	if len(meshFindings) > 0 {
		res.findings = append(res.findings, meshFindings...)
		sortFindings(res.findings)
	}
	code := 0
	if meshBad {
		code = 1
	}
	var notes []sarifNotification
	for _, e := range res.errors {
		fmt.Fprintln(stderr, e)
		notes = append(notes, sarifNotification{Level: "error", Message: sarifMessage{Text: e}})
		code = 1
	}
	printTestErrors(stderr, res.testErrors)
	for _, e := range res.testErrors {
		notes = append(notes, sarifNotification{Level: "warning", Message: sarifMessage{Text: e + " (a test file: not analyzed)"}})
	}

	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "resilint: %v\n", err)
		return 1
	}
	b := newSARIFBuilder(srcRoot(wd), all)
	for _, f := range res.findings {
		b.add(f.fset(), f.check, f.diag)
	}
	log := b.log(notes, code == 0)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		fmt.Fprintf(stderr, "resilint: %v\n", err)
		return 1
	}
	return code
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// selectAnalyzers applies -NAME flags the way the checker does: if any is
// true, only those run; else those set false are dropped.
func selectAnalyzers(all []*analysis.Analyzer, enable map[*analysis.Analyzer]*triState) []*analysis.Analyzer {
	var anyTrue bool
	for _, ts := range enable {
		anyTrue = anyTrue || *ts == setTrue
	}
	var out []*analysis.Analyzer
	for _, a := range all {
		switch {
		case anyTrue && *enable[a] == setTrue, !anyTrue && *enable[a] != setFalse:
			out = append(out, a)
		}
	}
	return out
}

// triState is a boolean flag that remembers whether it was set.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (ts *triState) IsBoolFlag() bool { return true }

func (ts *triState) String() string {
	switch *ts {
	case setTrue:
		return "true"
	case setFalse:
		return "false"
	}
	return "unset"
}

func (ts *triState) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	*ts = setFalse
	if b {
		*ts = setTrue
	}
	return nil
}

// srcRoot returns the directory that SARIF paths are relative to: the
// root of the Git work tree holding dir (code scanning wants paths
// relative to the repository), or dir itself outside any.
func srcRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, ".git")) {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// The subset of the SARIF 2.1.0 schema that resilint writes.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	Invocations        []sarifInvocation           `json:"invocations"`
	Results            []sarifResult               `json:"results"`
	ColumnKind         string                      `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	InformationURI  string      `json:"informationUri"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	FullDescription      sarifMessage `json:"fullDescription"`
	Help                 sarifMessage `json:"help"`
	HelpURI              string       `json:"helpUri,omitempty"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           sarifRegion      `json:"region"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion   `json:"deletedRegion"`
	InsertedContent *sarifMessage `json:"insertedContent,omitempty"`
}

const srcRootID = "%SRCROOT%"

// sarifBuilder collects results and the rules they use.
type sarifBuilder struct {
	root    string
	order   map[string]int // analyzer name → position in the suite
	rules   map[string]*sarifRule
	results []sarifResult
	seen    map[string]bool // results already added (test variants repeat files)
	lines   map[string][][]byte
}

func newSARIFBuilder(root string, all []*analysis.Analyzer) *sarifBuilder {
	b := &sarifBuilder{
		root:  root,
		order: make(map[string]int),
		rules: make(map[string]*sarifRule),
		seen:  make(map[string]bool),
		lines: make(map[string][][]byte),
	}
	for i, a := range all {
		b.order[a.Name] = i
	}
	return b
}

func (b *sarifBuilder) add(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic) {
	id := a.Name
	if d.Category != "" {
		id += "/" + d.Category
	}
	res := sarifResult{
		RuleID:    id,
		Level:     "warning",
		Message:   sarifMessage{Text: d.Message},
		Locations: []sarifLocation{{PhysicalLocation: b.physical(fset, d.Pos, d.End)}},
	}
	for i, r := range d.Related {
		n := i + 1
		res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
			ID:               &n,
			PhysicalLocation: b.physical(fset, r.Pos, r.End),
			Message:          &sarifMessage{Text: r.Message},
		})
	}
	for _, fix := range d.SuggestedFixes {
		res.Fixes = append(res.Fixes, b.fix(fset, fix))
	}
	key, _ := json.Marshal(res)
	if b.seen[string(key)] {
		return
	}
	b.seen[string(key)] = true
	b.results = append(b.results, res)
	if b.rules[id] == nil {
		b.rules[id] = rule(a, id, d.Category)
	}
}

// rule describes one analyzer/category pair. An analyzer's Doc is
// "title\n\ndescription".
func rule(a *analysis.Analyzer, id, category string) *sarifRule {
	title, rest, _ := strings.Cut(a.Doc, "\n")
	rest = strings.TrimSpace(rest)
	full, _, _ := strings.Cut(rest, "\n\n")
	full = strings.Join(strings.Fields(cmp.Or(full, title)), " ")
	short := title
	if category != "" {
		short += " (" + category + ")"
	}
	r := &sarifRule{
		ID:               id,
		ShortDescription: sarifMessage{Text: short},
		FullDescription:  sarifMessage{Text: full},
		Help:             sarifMessage{Text: a.Doc},
		HelpURI:          diagnosticURL(a, analysis.Diagnostic{Category: category}),
	}
	r.DefaultConfiguration.Level = "warning"
	return r
}

func (b *sarifBuilder) fix(fset *token.FileSet, fix analysis.SuggestedFix) sarifFix {
	out := sarifFix{Description: sarifMessage{Text: fix.Message}}
	byFile := make(map[string]int)
	for _, e := range fix.TextEdits {
		loc := b.physical(fset, e.Pos, e.End)
		i, ok := byFile[loc.ArtifactLocation.URI]
		if !ok {
			i = len(out.ArtifactChanges)
			byFile[loc.ArtifactLocation.URI] = i
			out.ArtifactChanges = append(out.ArtifactChanges, sarifArtifactChange{ArtifactLocation: loc.ArtifactLocation})
		}
		out.ArtifactChanges[i].Replacements = append(out.ArtifactChanges[i].Replacements, sarifReplacement{
			DeletedRegion:   loc.Region,
			InsertedContent: &sarifMessage{Text: string(e.NewText)},
		})
	}
	return out
}

// physical locates [pos, end) (end may be NoPos: an empty region).
func (b *sarifBuilder) physical(fset *token.FileSet, pos, end token.Pos) sarifPhysicalLocation {
	start := fset.Position(pos)
	stop := start
	if end.IsValid() && end >= pos {
		stop = fset.Position(end)
	}
	return sarifPhysicalLocation{
		ArtifactLocation: b.artifact(start.Filename),
		Region: sarifRegion{
			StartLine:   max(start.Line, 1),
			StartColumn: b.column(start),
			EndLine:     max(stop.Line, 1),
			EndColumn:   b.column(stop),
		},
	}
}

// artifact names a file relative to the source root, or by an absolute
// file URI when it lies outside (a dependency's file).
func (b *sarifBuilder) artifact(filename string) sarifArtifactLoc {
	if rel, err := filepath.Rel(b.root, filename); err == nil && filepath.IsLocal(rel) {
		u := url.URL{Path: filepath.ToSlash(rel)}
		return sarifArtifactLoc{URI: u.EscapedPath(), URIBaseID: srcRootID}
	}
	return sarifArtifactLoc{URI: fileURI(filename)}
}

func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x
	}
	u := url.URL{Scheme: "file", Path: p}
	return u.String()
}

// column converts go/token's byte column into SARIF's default column
// unit, UTF-16 code units, 1-based. Unknown lines keep the byte column.
func (b *sarifBuilder) column(p token.Position) int {
	col := max(p.Column, 1)
	lines, ok := b.lines[p.Filename]
	if !ok {
		data, err := os.ReadFile(p.Filename)
		if err == nil {
			lines = splitLines(data)
		}
		b.lines[p.Filename] = lines
	}
	if p.Line < 1 || p.Line > len(lines) {
		return col
	}
	line := lines[p.Line-1]
	prefix := line[:min(col-1, len(line))]
	n := 0
	for len(prefix) > 0 {
		r, size := utf8.DecodeRune(prefix) // an invalid byte: U+FFFD, one unit
		n += utf16.RuneLen(r)
		prefix = prefix[size:]
	}
	return n + 1 + max(col-1-len(line), 0)
}

func splitLines(data []byte) [][]byte {
	var lines [][]byte
	for len(data) > 0 {
		i := slices.Index(data, '\n')
		if i < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:i])
		data = data[i+1:]
	}
	return lines
}

func (b *sarifBuilder) log(notes []sarifNotification, ok bool) sarifLog {
	var ids []string
	for id := range b.rules {
		ids = append(ids, id)
	}
	analyzerOf := func(id string) string { a, _, _ := strings.Cut(id, "/"); return a }
	slices.SortFunc(ids, func(x, y string) int {
		return cmp.Or(cmp.Compare(b.order[analyzerOf(x)], b.order[analyzerOf(y)]), cmp.Compare(x, y))
	})
	index := make(map[string]int)
	rules := []sarifRule{}
	for i, id := range ids {
		index[id] = i
		rules = append(rules, *b.rules[id])
	}
	results := slices.Clone(b.results)
	for i := range results {
		results[i].RuleIndex = index[results[i].RuleID]
	}
	slices.SortStableFunc(results, func(x, y sarifResult) int {
		px, py := x.Locations[0].PhysicalLocation, y.Locations[0].PhysicalLocation
		return cmp.Or(
			cmp.Compare(px.ArtifactLocation.URI, py.ArtifactLocation.URI),
			cmp.Compare(px.Region.StartLine, py.Region.StartLine),
			cmp.Compare(px.Region.StartColumn, py.Region.StartColumn),
			cmp.Compare(x.RuleID, y.RuleID),
			cmp.Compare(x.Message.Text, y.Message.Text),
		)
	})
	if results == nil {
		results = []sarifResult{}
	}
	root := filepath.ToSlash(b.root)
	if !strings.HasSuffix(root, "/") {
		root += "/"
	}
	return sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool: sarifTool{Driver: sarifDriver{
				Name:            "resilint",
				InformationURI:  "https://github.com/resilint/resilint",
				Version:         buildVersion(),
				SemanticVersion: semanticVersion(),
				Rules:           rules,
			}},
			OriginalURIBaseIDs: map[string]sarifArtifactLoc{srcRootID: {URI: fileURI(root)}},
			Invocations:        []sarifInvocation{{ExecutionSuccessful: ok, ToolExecutionNotifications: notes}},
			Results:            results,
			ColumnKind:         "utf16CodeUnits",
		}},
	}
}
