package engine

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
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

// TestGraphUpdate: one engine analyzes a series of unsaved edits of b.go
// that change its imports. When every package imported is in the graph
// already and importable (by the go command's rules), the graph is
// updated in memory, without the go command; otherwise it is loaded
// again. Either way the graph is the one the go command gives for the
// same files, and the findings and errors are those of a new engine.
func TestGraphUpdate(t *testing.T) {
	for _, tests := range []bool{false, true} {
		t.Run(fmt.Sprintf("tests=%v", tests), func(t *testing.T) {
			dir := writeGraphModule(t)
			b := filepath.Join(dir, "b", "b.go")
			xtest := filepath.Join(dir, "b", "x_test.go")
			e := New([]*analysis.Analyzer{reporter}, Options{Version: "v1"})
			steps := []struct {
				what    string
				file    string
				src     string
				want    string // how the graph is had
				wantErr bool   // b does not compile
			}{
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
				{"out of the cycle", b, bSource(`"m/a"`, `"m/d"`), GraphLoaded, false},
			}
			if tests {
				// The external test imports a package that imports b: the
				// go command makes a test variant of it.
				steps = append(steps,
					struct {
						what, file, src, want string
						wantErr               bool
					}{"an external test imports a dependent of b", xtest, "package b_test\n\nimport (\n\t\"testing\"\n\n\t\"m/b\"\n\t\"m/e\"\n)\n\nfunc TestB(t *testing.T) { b.Use(); e.E() }\n", GraphLoaded, false},
					struct {
						what, file, src, want string
						wantErr               bool
					}{"an external test imports a package in the graph", xtest, "package b_test\n\nimport (\n\t\"testing\"\n\n\t\"m/b\"\n\t\"m/c\"\n)\n\nfunc TestB(t *testing.T) { b.Use(); c.C() }\n", GraphUpdated, false},
					struct {
						what, file, src, want string
						wantErr               bool
					}{"and b imports it too", b, bSource(`"m/a"`, `"m/c"`, `"m/d"`), GraphUpdated, false},
				)
			}
			overlay := make(map[string][]byte)
			for _, s := range steps {
				overlay[s.file] = []byte(s.src)
				cfg := Config{Dir: dir, Tests: tests, Overlay: overlay}
				res, err := e.Run(cfg, "./b")
				if err != nil {
					t.Fatalf("%s: %v", s.what, err)
				}
				if res.Graph != s.want {
					t.Errorf("%s: graph %s, want %s", s.what, res.Graph, s.want)
				}
				want, err := packages.Load(&packages.Config{Mode: loadMode, Dir: dir, Tests: tests, Overlay: overlay}, "./b")
				if err != nil {
					t.Fatal(err)
				}
				if got, want := describe(e.graph.pkgs), describe(want); got != want {
					t.Errorf("%s: the graph differs from the go command's:\n--- engine\n%s\n--- go list\n%s", s.what, got, want)
				}
				fresh, err := New([]*analysis.Analyzer{reporter}, Options{Version: "v1"}).Run(cfg, "./b")
				if err != nil {
					t.Fatal(err)
				}
				if got, want := outcome(res), outcome(fresh); got != want {
					t.Errorf("%s: outcome\n%s\nwant (a new engine's)\n%s", s.what, got, want)
				}
				if broken := len(res.Errors) > 0; broken != s.wantErr {
					t.Errorf("%s: errors %q, want errors: %v", s.what, res.Errors, s.wantErr)
				}
			}
		})
	}
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
