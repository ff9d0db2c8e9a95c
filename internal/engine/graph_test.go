package engine

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/resilint/resilint/internal/cache"
)

// writeGraphModule writes module m, which requires module n (beside it,
// through a replace directive), with packages around b, the root:
//
//	b → a, d        d → c, n/p, m/internal/x, errors        c → a
//	e → b (importing e from b is a cycle)
//
// and tests of b in package b and in package b_test.
func writeGraphModule(t *testing.T) string {
	root := t.TempDir()
	write(t, root, "n/go.mod", "module n\n\ngo 1.26\n")
	write(t, root, "n/p/p.go", "package p\n\nimport \"strings\"\n\nfunc Up(s string) string { return strings.ToUpper(s) }\n")
	dir := filepath.Join(root, "m")
	write(t, dir, "go.mod", "module m\n\ngo 1.26\n\nrequire n v0.0.0\n\nreplace n => ../n\n")
	write(t, dir, "a/a.go", "package a\n\nimport \"time\"\n\nfunc Slow() { time.Sleep(1) }\n\nfunc Fast() {}\n")
	write(t, dir, "c/c.go", "package c\n\nimport \"m/a\"\n\nfunc C() { a.Slow() }\n")
	write(t, dir, "internal/x/x.go", "package x\n\nfunc X() {}\n")
	write(t, dir, "d/d.go", "package d\n\nimport (\n\t\"errors\"\n\n\t\"m/c\"\n\t\"m/internal/x\"\n\t\"n/p\"\n)\n\nvar Err = errors.New(p.Up(\"d\"))\n\nfunc D() { c.C(); x.X() }\n")
	write(t, dir, "e/e.go", "package e\n\nimport \"m/b\"\n\nfunc E() { b.Use() }\n")
	write(t, dir, "b/b.go", bSource(`"m/a"`, `"m/d"`))
	write(t, dir, "b/b_test.go", "package b\n\nimport \"testing\"\n\nfunc TestUse(t *testing.T) { Use() }\n")
	write(t, dir, "b/x_test.go", "package b_test\n\nimport (\n\t\"testing\"\n\n\t\"m/b\"\n)\n\nfunc TestB(t *testing.T) { b.Use() }\n")
	// Written an hour ago: a file written within the clock's tick of a
	// load could change unseen, and makes the next run load again.
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(root, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(path, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// bSource is b.go importing imports, each used.
func bSource(imports ...string) string {
	var s strings.Builder
	s.WriteString("package b\n\nimport (\n")
	for _, imp := range imports {
		fmt.Fprintf(&s, "\t%s\n", imp)
	}
	s.WriteString(")\n\nfunc Use() {\n\ta.Slow()\n\ta.Fast()\n}\n\nvar _ = []any{\n")
	for _, imp := range imports {
		switch imp {
		case `"m/a"`:
		case `"m/d"`:
			s.WriteString("\td.D,\n")
		case `"m/c"`:
			s.WriteString("\tc.C,\n")
		case `"n/p"`:
			s.WriteString("\tp.Up,\n")
		case `"errors"`:
			s.WriteString("\terrors.New,\n")
		case `"m/internal/x"`:
			s.WriteString("\tx.X,\n")
		case `"m/e"`:
			s.WriteString("\te.E,\n")
		case `"image/png"`:
			s.WriteString("\tpng.Decode,\n")
		default:
			panic(imp)
		}
	}
	s.WriteString("}\n")
	return s.String()
}

// describe prints a package graph: every package reachable from the
// roots, with what of it the engine reads.
func describe(roots []*packages.Package) string {
	var lines []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		var imports []string
		for path, d := range p.Imports {
			imports = append(imports, path+"="+d.ID)
		}
		slices.Sort(imports)
		var errs []string
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		mod := ""
		if p.Module != nil {
			mod = p.Module.Path
		}
		lines = append(lines, fmt.Sprintf("%s name=%s path=%s module=%s\n\tgo=%v\n\tcompiled=%v\n\tother=%v ignored=%v\n\timports=%v\n\terrors=%q",
			p.ID, p.Name, p.PkgPath, mod, p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles, imports, errs))
	})
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// step is an unsaved edit, how the engine is to have the package graph
// after it, and whether b is then broken.
type step struct {
	what    string
	file    string
	src     string
	want    string
	wantErr bool
}

// TestGraphUpdate: one engine analyzes a series of unsaved edits of b's
// files that change their imports. When every package imported is in the
// graph already and importable (by the go command's rules), the graph is
// updated in memory, without the go command; otherwise it is loaded
// again. Either way the graph is the one the go command gives for the
// same files, and the findings and errors are those of a new engine.
func TestGraphUpdate(t *testing.T) {
	t.Run("tests=false", func(t *testing.T) {
		dir := writeGraphModule(t)
		b := filepath.Join(dir, "b", "b.go")
		runSteps(t, New([]*analysis.Analyzer{reporter}, Options{Version: "v1"}), dir, false, []step{
			{"open", b, bSource(`"m/a"`, `"m/d"`), GraphLoaded, false},
			{"a package of the module in the graph", b, bSource(`"m/a"`, `"m/c"`, `"m/d"`), GraphUpdated, false},
			{"a package of a required module in the graph", b, bSource(`"m/a"`, `"m/c"`, `"m/d"`, `"n/p"`), GraphUpdated, false},
			{"a standard package in the graph", b, bSource(`"errors"`, `"m/a"`, `"m/c"`, `"m/d"`, `"n/p"`), GraphUpdated, false},
			{"imports removed", b, bSource(`"m/a"`), GraphUpdated, false},
			{"imports back", b, bSource(`"m/a"`, `"m/d"`), GraphUpdated, false},
			{"the same imports, another body", b, bSource(`"m/a"`, `"m/d"`) + "\nfunc More() { a.Slow() }\n", GraphReused, false},
			{"an internal package: left to the go command", b, bSource(`"m/a"`, `"m/d"`, `"m/internal/x"`), GraphLoaded, false},
			{"a standard package not in the graph", b, bSource(`"m/a"`, `"m/d"`, `"image/png"`), GraphLoaded, false},
			{"an import cycle", b, bSource(`"m/a"`, `"m/d"`, `"m/e"`), GraphLoaded, true},
		})
	})
	t.Run("tests=true", func(t *testing.T) {
		dir := writeGraphModule(t)
		b := filepath.Join(dir, "b", "b.go")
		xtest := filepath.Join(dir, "b", "x_test.go")
		runSteps(t, New([]*analysis.Analyzer{reporter}, Options{Version: "v1"}), dir, true, []step{
			{"open", b, bSource(`"m/a"`, `"m/d"`), GraphLoaded, false},
			{"b (and its test variant) import a package in the graph", b, bSource(`"m/a"`, `"m/c"`, `"m/d"`), GraphUpdated, false},
			// The go command makes a test variant of a package that
			// imports b, for b's external test.
			{"the external test imports a dependent of b", xtest, "package b_test\n\nimport (\n\t\"testing\"\n\n\t\"m/b\"\n\t\"m/e\"\n)\n\nfunc TestB(t *testing.T) { b.Use(); e.E() }\n", GraphLoaded, false},
			{"the external test imports a package in the graph", xtest, "package b_test\n\nimport (\n\t\"testing\"\n\n\t\"m/b\"\n\t\"m/c\"\n)\n\nfunc TestB(t *testing.T) { b.Use(); c.C() }\n", GraphUpdated, false},
		})
	})
}

// TestGraphUpdateTestMainFresh: the go command's generated test main is
// made anew, or its time refreshed by the go command's cache, by any
// load; a fresh time on it is no edit, and the next edit still updates
// the graph in memory.
func TestGraphUpdateTestMainFresh(t *testing.T) {
	dir := writeGraphModule(t)
	b := filepath.Join(dir, "b", "b.go")
	e := New([]*analysis.Analyzer{reporter}, Options{Version: "v1"})
	touch := func() {
		n := 0
		packages.Visit(e.graph.pkgs, nil, func(p *packages.Package) {
			if !isTestMain(p) {
				return
			}
			for _, f := range p.CompiledGoFiles {
				now := time.Now()
				if err := os.Chtimes(f, now, now); err != nil {
					t.Fatal(err)
				}
				n++
			}
		})
		if n == 0 {
			t.Fatal("no test main in the graph")
		}
	}
	runSteps(t, e, dir, true, []step{{"open", b, bSource(`"m/a"`, `"m/d"`), GraphLoaded, false}})
	touch()
	runSteps(t, e, dir, true, []step{{"an import added after the test main's time changed", b, bSource(`"m/a"`, `"m/c"`, `"m/d"`), GraphUpdated, false}})
}

// TestPrepare: packages that an edit may import, prepared in the
// background, join the graph when the edit imports them (if the go
// command would let it), with no go command in the run; after a run
// that took everything from the cache, the dependencies' export data is
// read ahead.
func TestPrepare(t *testing.T) {
	dir := writeGraphModule(t)
	write(t, filepath.Join(dir, ".."), "n/q/q.go", "package q\n\nimport \"time\"\n\nfunc Q() { time.Sleep(1) }\n")
	write(t, dir, "f/f.go", "package f\n\nimport \"n/q\"\n\nfunc F() { q.Q() }\n")
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"../n/q/q.go", "../n/q", "f/f.go", "f"} {
		os.Chtimes(filepath.Join(dir, f), old, old)
	}
	b := filepath.Join(dir, "b", "b.go")
	src := func(imports ...string) string {
		s := bSource(`"m/a"`, `"m/d"`)
		for _, imp := range imports {
			s = strings.Replace(s, "import (\n", "import (\n\t\""+imp+"\"\n", 1)
			s += fmt.Sprintf("\nvar _ = %s\n", map[string]string{"m/f": "f.F", "image/png": "png.Decode", "m/internal/y": "y.Y"}[imp])
		}
		return s
	}
	write(t, dir, "internal/y/y.go", "package y\n\nfunc Y() {}\n")
	c, err := cache.Open(t.TempDir(), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	// A first engine fills the cache; the second (a new process) finds
	// everything there.
	cfg := Config{Dir: dir, Overlay: map[string][]byte{b: []byte(src())}}
	if _, err := New([]*analysis.Analyzer{reporter}, Options{Cache: c, Version: "v1"}).Run(cfg, "./b"); err != nil {
		t.Fatal(err)
	}
	e := New([]*analysis.Analyzer{reporter}, Options{Cache: c, Version: "v1"})
	res, err := e.Run(cfg, "./b")
	if err != nil {
		t.Fatal(err)
	}
	if res.Analyzed != 0 {
		t.Fatalf("%d packages analyzed, want all from the cache", res.Analyzed)
	}
	e.Prepare(cfg, []string{"./b"}, []string{"m/f", "image/png", "m/internal/y", "no/such/package"})
	e.Wait()
	steps := []step{
		{"a package of the module, which imports one of a required module", b, src("m/f"), GraphUpdated, false},
		{"and a standard one", b, src("m/f", "image/png"), GraphUpdated, false},
		{"back", b, src(), GraphUpdated, false},
		{"an internal package: left to the go command", b, src("m/internal/y"), GraphLoaded, false},
	}
	for i, s := range runSteps(t, e, dir, false, steps) {
		if d := s.Phases[PhaseExportFiles]; d != 0 && steps[i].want != GraphLoaded {
			t.Errorf("%s: the go command listed export data (%v)", steps[i].what, d)
		}
	}
}

// runSteps runs the steps on one engine, in order, and checks each.
func runSteps(t *testing.T, e *Engine, dir string, tests bool, steps []step) []*Result {
	t.Helper()
	overlay := make(map[string][]byte)
	var results []*Result
	for _, s := range steps {
		overlay[s.file] = []byte(s.src)
		cfg := Config{Dir: dir, Tests: tests, Overlay: maps.Clone(overlay)}
		res, err := e.Run(cfg, "./b")
		if err != nil {
			t.Fatalf("%s: %v", s.what, err)
		}
		results = append(results, res)
		if res.Graph != s.want {
			t.Errorf("%s: graph %s, want %s", s.what, res.Graph, s.want)
		}
		if broken := len(res.Errors) > 0; broken != s.wantErr {
			t.Errorf("%s: errors %q, want errors: %v", s.what, res.Errors, s.wantErr)
		}
		if res.Graph != GraphUpdated {
			continue // the go command's graph, or the last one
		}
		// A new engine loads the graph with the go command.
		fe := New([]*analysis.Analyzer{reporter}, Options{Version: "v1"})
		fresh, err := fe.Run(cfg, "./b")
		if err != nil {
			t.Fatal(err)
		}
		if fresh.Graph != GraphLoaded {
			t.Fatalf("a new engine's graph: %s", fresh.Graph)
		}
		if got, want := describe(e.graph.pkgs), describe(fe.graph.pkgs); got != want {
			t.Errorf("%s: the graph differs from the go command's:\n--- engine\n%s\n--- go list\n%s", s.what, got, want)
		}
		if got, want := outcome(res), outcome(fresh); got != want {
			t.Errorf("%s: outcome\n%s\nwant (a new engine's)\n%s", s.what, got, want)
		}
	}
	return results
}

// outcome prints the roots' findings and errors, and the run's errors.
func outcome(res *Result) string {
	var b strings.Builder
	for _, p := range res.Packages {
		fmt.Fprintf(&b, "%s errors=%q analysis=%q\n", p.ID, p.Errors, p.AnalysisErrors)
		for _, d := range p.Diagnostics {
			fmt.Fprintf(&b, "\t%s: %s\n", d.Pos, d.Message)
		}
	}
	fmt.Fprintf(&b, "errors=%q\n", res.Errors)
	return b.String()
}
