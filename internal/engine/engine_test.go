package engine

import (
	"flag"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/resilint/resilint/internal/cache"
)

// isSlow marks a function that sleeps, directly or through a function
// of another package marked so: a fact that crosses packages.
type isSlow struct{}

func (*isSlow) AFact()         {}
func (*isSlow) String() string { return "slow" }

var marker = &analysis.Analyzer{
	Name:      "marker",
	Doc:       "marks functions that sleep",
	FactTypes: []analysis.Fact{(*isSlow)(nil)},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				slow := false
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok {
						if fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func); ok {
							if fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Name() == "Sleep" || pass.ImportObjectFact(fn, new(isSlow)) {
								slow = true
							}
						}
					}
					return true
				})
				if slow {
					pass.ExportObjectFact(pass.TypesInfo.Defs[fd.Name], new(isSlow))
				}
			}
		}
		return nil, nil
	},
}

var prefix string

var reporter = func() *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:     "reporter",
		Doc:      "reports calls of slow functions",
		Requires: []*analysis.Analyzer{marker},
		Flags:    *flag.NewFlagSet("reporter", flag.ContinueOnError),
		Run: func(pass *analysis.Pass) (any, error) {
			for _, f := range pass.Files {
				ast.Inspect(f, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok {
						if fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func); ok && fn.Pkg() != pass.Pkg && pass.ImportObjectFact(fn, new(isSlow)) {
							pass.Reportf(call.Pos(), "%scall of slow %s", prefix, fn.Name())
						}
					}
					return true
				})
			}
			return nil, nil
		},
	}
	a.Flags.StringVar(&prefix, "prefix", "", "message prefix")
	return a
}()

// module writes a module with package a (functions, some slow) and
// package b (calls them), and returns its directory.
func writeModule(t *testing.T) string {
	dir := t.TempDir()
	write(t, dir, "go.mod", "module m\n\ngo 1.26\n")
	write(t, dir, "a/a.go", "package a\n\nimport \"time\"\n\nfunc Slow() { time.Sleep(1) }\n\nfunc Fast() {}\n")
	write(t, dir, "b/b.go", "package b\n\nimport \"m/a\"\n\nfunc Use() {\n\ta.Slow()\n\ta.Fast()\n}\n")
	return dir
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, name)
	os.MkdirAll(filepath.Dir(path), 0o777)
	if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}

type runner struct {
	t     *testing.T
	dir   string
	cache *cache.Cache
}

func newRunner(t *testing.T) *runner {
	c, err := cache.Open(t.TempDir(), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	return &runner{t: t, dir: writeModule(t), cache: c}
}

// run analyzes ./b with a new engine (a new process, as far as memory
// goes) and returns the messages and the number of packages analyzed.
func (r *runner) run(version string, overlay map[string][]byte) ([]string, int) {
	r.t.Helper()
	e := New([]*analysis.Analyzer{reporter}, Options{Cache: r.cache, Version: version})
	res, err := e.Run(Config{Dir: r.dir, Overlay: overlay}, "./b")
	if err != nil {
		r.t.Fatal(err)
	}
	return messages(r.t, res), res.Analyzed
}

func messages(t *testing.T, res *Result) []string {
	t.Helper()
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	var msgs []string
	for _, p := range res.Packages {
		if len(p.AnalysisErrors) > 0 {
			t.Fatalf("analysis errors: %v", p.AnalysisErrors)
		}
		for _, d := range p.Diagnostics {
			msgs = append(msgs, filepath.Base(d.Pos.Filename)+":"+itoa(d.Pos.Line)+": "+d.Message)
		}
	}
	slices.Sort(msgs)
	return msgs
}

func itoa(i int) string { return strconv.Itoa(i) }

func check(t *testing.T, what string, got []string, analyzed int, want []string, wantAnalyzed int) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: findings %q, want %q", what, got, want)
	}
	if wantAnalyzed >= 0 && analyzed != wantAnalyzed {
		t.Errorf("%s: %d packages analyzed, want %d", what, analyzed, wantAnalyzed)
	}
	if wantAnalyzed < 0 && analyzed == 0 {
		t.Errorf("%s: nothing analyzed, want a re-analysis", what)
	}
}

func TestCacheReuse(t *testing.T) {
	r := newRunner(t)
	want := []string{"b.go:6: call of slow Slow"}
	got, n := r.run("v1", nil)
	check(t, "cold", got, n, want, -1)
	got, n = r.run("v1", nil)
	check(t, "warm", got, n, want, 0)
}

func TestCacheEditedFile(t *testing.T) {
	r := newRunner(t)
	r.run("v1", nil)
	write(t, r.dir, "b/b.go", "package b\n\nimport \"m/a\"\n\nfunc Use() {\n\ta.Fast()\n\ta.Slow()\n}\n")
	got, n := r.run("v1", nil)
	check(t, "b edited", got, n, []string{"b.go:7: call of slow Slow"}, 1)
}

func TestCacheChangedDependency(t *testing.T) {
	r := newRunner(t)
	r.run("v1", nil)
	// Fast becomes slow: a's facts change, and b must see them.
	write(t, r.dir, "a/a.go", "package a\n\nimport \"time\"\n\nfunc Slow() { time.Sleep(1) }\n\nfunc Fast() { Slow() }\n")
	got, n := r.run("v1", nil)
	check(t, "a edited", got, n, []string{"b.go:6: call of slow Slow", "b.go:7: call of slow Fast"}, 2)
}

func TestCacheChangedFlag(t *testing.T) {
	r := newRunner(t)
	r.run("v1", nil)
	reporter.Flags.Set("prefix", "flagged: ")
	defer reporter.Flags.Set("prefix", "")
	got, n := r.run("v1", nil)
	check(t, "flag changed", got, n, []string{"b.go:6: flagged: call of slow Slow"}, -1)
}

func TestCacheNewVersion(t *testing.T) {
	r := newRunner(t)
	r.run("v1", nil)
	got, n := r.run("v2", nil)
	check(t, "new version", got, n, []string{"b.go:6: call of slow Slow"}, -1)
	got, n = r.run("v2", nil)
	check(t, "new version, warm", got, n, []string{"b.go:6: call of slow Slow"}, 0)
}

// An unsaved buffer (an overlay) is analyzed instead of the file, and its
// result does not stand for the file on disk.
func TestCacheOverlay(t *testing.T) {
	r := newRunner(t)
	r.run("v1", nil)
	b := filepath.Join(r.dir, "b", "b.go")
	got, n := r.run("v1", map[string][]byte{b: []byte("package b\n\nimport \"m/a\"\n\nfunc Use() {\n\ta.Fast()\n}\n")})
	check(t, "overlay", got, n, nil, 1)
	got, n = r.run("v1", nil)
	check(t, "disk again", got, n, []string{"b.go:6: call of slow Slow"}, 0)
}

// Two runs at once on one cache directory (two processes: nothing shared
// in memory) both get the right result, and leave a whole cache.
func TestCacheTwoRunsAtOnce(t *testing.T) {
	r := newRunner(t)
	want := []string{"b.go:6: call of slow Slow"}
	var wg sync.WaitGroup
	results := make([][]string, 2)
	for i := range results {
		wg.Go(func() {
			c, _ := cache.Open(r.cache.Dir(), 1<<30)
			e := New([]*analysis.Analyzer{reporter}, Options{Cache: c, Version: "v1"})
			res, err := e.Run(Config{Dir: r.dir}, "./b")
			if err != nil {
				t.Error(err)
				return
			}
			results[i] = messages(t, res)
		})
	}
	wg.Wait()
	for i, got := range results {
		check(t, "concurrent run "+itoa(i), got, 1, want, 1)
	}
	got, n := r.run("v1", nil)
	check(t, "after", got, n, want, 0)
}

// One engine across runs (the language server's): an unsaved edit is
// analyzed alone, from memory; an edit that adds an import loads the
// graph again; a dependency changed on disk is seen, facts included.
func TestEngineKeepsMemory(t *testing.T) {
	r := newRunner(t)
	e := New([]*analysis.Analyzer{reporter}, Options{Cache: nil, Version: "v1"})
	run := func(what string, overlay map[string][]byte, want []string, wantAnalyzed int) {
		t.Helper()
		res, err := e.Run(Config{Dir: r.dir, Overlay: overlay}, "./b")
		if err != nil {
			t.Fatal(err)
		}
		check(t, what, messages(t, res), res.Analyzed, want, wantAnalyzed)
	}
	run("first", nil, []string{"b.go:6: call of slow Slow"}, -1)
	run("unchanged, no disk cache", nil, []string{"b.go:6: call of slow Slow"}, 0)
	b := filepath.Join(r.dir, "b", "b.go")
	run("unsaved edit", map[string][]byte{b: []byte("package b\n\nimport \"m/a\"\n\nfunc Use() {\n\ta.Fast()\n\ta.Fast()\n\ta.Slow()\n}\n")}, []string{"b.go:8: call of slow Slow"}, 1)
	run("new import", map[string][]byte{b: []byte("package b\n\nimport (\n\t\"m/a\"\n\t\"time\"\n)\n\nfunc Use() {\n\ta.Slow()\n\ttime.Sleep(1)\n}\n")}, []string{"b.go:9: call of slow Slow"}, 1) // a type error, were the graph not loaded again
	write(t, r.dir, "a/a.go", "package a\n\nimport \"time\"\n\nfunc Slow() { time.Sleep(1) }\n\nfunc Fast() { Slow() }\n")
	run("a changed on disk", nil, []string{"b.go:6: call of slow Slow", "b.go:7: call of slow Fast"}, 2)
}
