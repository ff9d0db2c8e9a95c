package lsp

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers"
	"github.com/resilint/resilint/internal/cache"
	"github.com/resilint/resilint/internal/engine"
)

// analysisResult is the outcome of analyzing one directory's packages.
type analysisResult struct {
	// files holds every Go file of the packages analyzed, with its
	// findings (none clears the file's diagnostics).
	files map[string]*fileState
	// problems are packages that were not analyzed, and why.
	problems []string
}

// analyze loads the packages of dir, with the open documents as an
// overlay, runs the analyzers on them as the command-line driver does,
// and converts the diagnostics to LSP.
//
// The server keeps one engine (internal/engine) for its life: the types
// of the dependencies, read from export data, and every package's facts
// stay in memory between edits, so after the first analysis only the
// edited package and its dependents are analyzed again, from the unsaved
// buffers.
func (s *server) analyze(dir string, tests bool, docs map[string]*document) (res *analysisResult, err error) {
	defer func() {
		// An analyzer's bug must not take the server down.
		if p := recover(); p != nil {
			s.logf("panic analyzing %s: %v\n%s", dir, p, debug.Stack())
			res, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()

	overlay := make(map[string][]byte, len(docs))
	for path, d := range docs {
		overlay[path] = []byte(d.text)
	}
	if s.engine == nil {
		c, err := cache.Default()
		if err != nil {
			s.logf("no cache: %v", err)
		}
		s.engine = engine.New(s.analyzers, engine.Options{Cache: c, Salt: "include-tests=" + analyzers.IncludeTestsFlag().String(), PrepareOnLoad: analyzers.FixImports()})
	}
	cfg := engine.Config{Context: s.ctx, Dir: dir, Tests: tests, Overlay: overlay}
	run, err := s.engine.Run(cfg, ".")
	if err != nil {
		return nil, cleanLoadError(err)
	}
	s.logf("%s: %d packages analyzed, %d from the cache or memory; package graph %s in %v", dir, run.Analyzed, run.Cached, run.Graph, run.Load.Round(time.Millisecond))

	res = &analysisResult{files: make(map[string]*fileState)}
	content := newContents(docs)
	byName := make(map[string]*analysis.Analyzer)
	for _, a := range s.analyzers {
		byName[a.Name] = a
	}
	table := engine.NewPosTable(overlay)
	seen := make(map[string]bool)
	failed := make(map[string]bool)
	for _, pkg := range run.Packages {
		for _, f := range pkg.GoFiles {
			if _, ok := res.files[f]; !ok {
				res.files[f] = &fileState{uri: pathToURI(f), version: content.version(f)}
			}
		}
		if msg := loadProblem(pkg); msg != "" {
			res.problems = append(res.problems, msg)
			continue
		}
		for _, msg := range pkg.AnalysisErrors {
			if !failed[msg] {
				failed[msg] = true
				res.problems = append(res.problems, msg)
			}
		}
		for _, ed := range pkg.Diagnostics {
			a := byName[ed.Analyzer]
			if a == nil {
				continue
			}
			fd, file, key := convert(table.Fset, a, table.Diagnostic(ed), content)
			if fd == nil || seen[key] {
				continue // the same finding in a package and its test variant
			}
			seen[key] = true
			f, ok := res.files[file]
			if !ok {
				f = &fileState{uri: pathToURI(file), version: content.version(file)}
				res.files[file] = f
			}
			f.findings = append(f.findings, fd)
		}
	}
	for _, f := range res.files {
		sort.SliceStable(f.findings, func(i, j int) bool {
			return before(f.findings[i].diag.Range.Start, f.findings[j].diag.Range.Start)
		})
	}
	// What the next edit would ask the go command for, read now in the
	// background: the packages the quick fixes import that the graph
	// lacks, and export data a run from the cache did not read.
	s.engine.Prepare(cfg, []string{"."}, fixImports(res, content))
	return res, nil
}

// fixImports returns the import paths that the quick fixes offered add
// to their files.
func fixImports(res *analysisResult, c *contents) []string {
	var paths []string
	for path, f := range res.files {
		var text string
		have := map[string]bool{}
		for _, fd := range f.findings {
			for _, a := range fd.fixes {
				edits := a.Edit.Changes[f.uri]
				if len(edits) == 0 {
					continue
				}
				if text == "" {
					if d, ok := c.docs[path]; ok {
						text = d.text
					} else if b, err := os.ReadFile(path); err == nil {
						text = string(b)
					} else {
						break
					}
					for _, imp := range imports(path, text) {
						have[imp] = true
					}
				}
				fixed, err := applyEdits(text, edits)
				if err != nil {
					continue
				}
				for _, imp := range imports(path, fixed) {
					if !have[imp] && !slices.Contains(paths, imp) {
						paths = append(paths, imp)
					}
				}
			}
		}
	}
	sort.Strings(paths)
	return paths
}

// imports returns the import paths of a Go file, none if it does not
// parse.
func imports(name, src string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
	if err != nil {
		return nil
	}
	var out []string
	for _, s := range f.Imports {
		if p, err := strconv.Unquote(s.Path.Value); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// loadProblem says why a package was not analyzed, or returns "".
func loadProblem(pkg *engine.Package) string {
	if len(pkg.Errors) == 0 {
		return ""
	}
	why := "it does not compile"
	first := strings.TrimSpace(pkg.Errors[0])
	msg := fmt.Sprintf("%s was not analyzed: %s: %s", pkg.PkgPath, why, first)
	if len(pkg.Errors) > 1 {
		msg += fmt.Sprintf(" (and %d more errors)", len(pkg.Errors)-1)
	}
	return msg
}

// convert turns an analysis diagnostic into a finding in its file. It
// returns the file's path and a key that identifies the finding.
func convert(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic, c *contents) (*finding, string, string) {
	loc, ok := c.location(fset, d.Pos, d.End)
	if !ok {
		return nil, "", ""
	}
	file := fset.File(d.Pos).Name()
	code := a.Name
	if d.Category != "" {
		code += "/" + d.Category
	}
	url := d.URL
	if url == "" {
		url = a.URL
	}
	diag := Diagnostic{
		Range:    loc.Range,
		Severity: severityWarning,
		Code:     code,
		Source:   "resilint",
		Message:  d.Message,
	}
	if url != "" {
		diag.CodeDescription = &CodeDescription{Href: url}
	}
	for _, r := range d.Related {
		rl, ok := c.location(fset, r.Pos, r.End)
		if !ok {
			continue
		}
		diag.RelatedInformation = append(diag.RelatedInformation, DiagnosticRelatedInformation{Location: rl, Message: r.Message})
	}
	fd := &finding{diag: diag}
	for _, fix := range d.SuggestedFixes {
		edit, ok := c.workspaceEdit(fset, fix.TextEdits)
		if !ok {
			continue
		}
		fd.fixes = append(fd.fixes, CodeAction{Title: fix.Message, Kind: kindQuickFix, Edit: edit})
	}
	if len(fd.fixes) == 1 {
		fd.fixes[0].IsPreferred = true
	}
	start := fset.File(d.Pos).Offset(d.Pos)
	key := fmt.Sprintf("%s:%d:%s:%s", file, start, code, d.Message)
	return fd, file, key
}

// contents reads each file once per analysis: an open document's text
// (what the overlay gave the parser), else the file on disk.
type contents struct {
	docs    map[string]*document
	mappers map[string]*mapper
}

func newContents(docs map[string]*document) *contents {
	return &contents{docs: docs, mappers: make(map[string]*mapper)}
}

// version is the document version analyzed, or -1 for a file from disk.
func (c *contents) version(path string) int {
	if d, ok := c.docs[path]; ok {
		return d.version
	}
	return -1
}

func (c *contents) mapper(path string) *mapper {
	if m, ok := c.mappers[path]; ok {
		return m
	}
	var m *mapper
	if d, ok := c.docs[path]; ok {
		m = newMapper([]byte(d.text))
	} else if b, err := os.ReadFile(path); err == nil {
		m = newMapper(b)
	}
	c.mappers[path] = m
	return m
}

// location converts a token range to an LSP location; a NoPos end means
// the start.
func (c *contents) location(fset *token.FileSet, pos, end token.Pos) (Location, bool) {
	if !pos.IsValid() {
		return Location{}, false
	}
	tf := fset.File(pos)
	if tf == nil {
		return Location{}, false
	}
	m := c.mapper(tf.Name())
	if m == nil {
		return Location{}, false
	}
	start := tf.Offset(pos)
	stop := start
	if end.IsValid() && end >= pos && int(end) <= tf.Base()+tf.Size() {
		stop = tf.Offset(end)
	}
	return Location{URI: c.uri(tf.Name()), Range: m.rng(start, stop)}, true
}

func (c *contents) uri(path string) string {
	if d, ok := c.docs[path]; ok {
		return d.uri
	}
	return pathToURI(path)
}

// workspaceEdit converts a fix's edits; a fix with an edit the server
// cannot place is not offered.
func (c *contents) workspaceEdit(fset *token.FileSet, edits []analysis.TextEdit) (*WorkspaceEdit, bool) {
	we := &WorkspaceEdit{Changes: make(map[string][]TextEdit)}
	for _, e := range edits {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		loc, ok := c.location(fset, e.Pos, end)
		if !ok {
			return nil, false
		}
		we.Changes[loc.URI] = append(we.Changes[loc.URI], TextEdit{Range: loc.Range, NewText: string(e.NewText)})
	}
	return we, len(we.Changes) > 0
}

// cleanLoadError keeps what the go command said of an error from
// packages.Load ("err: exit status 1: stderr: go: go.mod file not found
// ..." becomes "go: go.mod file not found ...").
func cleanLoadError(err error) error {
	msg := err.Error()
	if _, after, ok := strings.Cut(msg, "stderr: "); ok && strings.TrimSpace(after) != "" {
		msg = after
	}
	return errors.New(strings.TrimSpace(msg))
}
