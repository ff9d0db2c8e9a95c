// Package engine runs analyzers over a package graph in dependency order,
// one package at a time, keeping of each package only what the packages
// after it need: its facts, serialized. Dependencies are read from the
// compiler's export data, never type-checked from source, and the facts
// and findings of a package whose inputs have not changed are taken from
// a cache (package cache), keyed the way the go command keys its actions:
// the package's files, its dependencies' keys, resilint's version and the
// flags that change results.
//
// Both the standalone driver (cmd/resilint) and the language server
// (internal/lsp) run the suite through an Engine; the server keeps one
// between edits, so a re-analysis redoes only the edited package and its
// dependents.
package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"flag"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/resilint/resilint/internal/cache"
)

// Config says what to analyze and how.
type Config struct {
	Context context.Context // nil: context.Background()
	Dir     string          // the directory the patterns are relative to
	Env     []string        // the go command's environment; nil: os.Environ()
	Tests   bool            // the packages' tests too
	// Overlay maps absolute file paths to contents that replace the
	// files on disk (an editor's unsaved buffers).
	Overlay map[string][]byte
	// Parallel is how many packages are analyzed at once; zero means
	// GOMAXPROCS.
	Parallel int
}

// Options are an Engine's settings, fixed for its life.
type Options struct {
	// Cache is where results are kept between runs; nil means none.
	Cache *cache.Cache
	// Version identifies the analyzers' code: a different version never
	// reuses a result. Empty means a hash of the running executable.
	Version string
	// Salt is anything else results depend on that the analyzers' own
	// flags do not say (a driver's switches). The analyzers' flags are
	// added by the engine.
	Salt string
	// PrepareOnLoad are import paths to prepare (see Prepare) as soon as
	// a run loads a package graph, while it analyzes: the imports the
	// driver's quick fixes may add, ready before a fix is applied.
	PrepareOnLoad []string
}

// An Engine runs a fixed set of analyzers. It keeps, in memory, the facts
// of the packages it analyzed or read from the cache, and the types read
// from export data, for its next runs. Run calls are serialized.
type Engine struct {
	analyzers []*analysis.Analyzer // the requested ones, run on the roots
	factOnly  []*analysis.Analyzer // those that make facts, and what they need, run on the dependencies
	opts      Options

	mu       sync.Mutex
	version  string
	mem      map[entryName][]byte // encoded facts by entry, kept between runs
	universe *universe
	exports  map[cache.Key]string // export data files by package key, from earlier runs
	hashes   map[string]fileHash  // file hashes, by path, from earlier runs
	graph    *graphMemo           // the last package graph loaded
	full     map[cache.Key]*entry // roots' results made by this engine

	needExports bool // the last run's dependencies lack export data
	exporting   bool // Prepare is reading it

	bg        sync.WaitGroup           // Prepare's work
	pmu       sync.Mutex               // guards preparing
	preparing map[string]chan struct{} // import paths being prepared; closed when done
}

// fileHash is a file's hash, valid while its size and time are these.
type fileHash struct {
	size int64
	mod  time.Time
	sum  [sha256.Size]byte
}

// New returns an engine that runs analyzers (and what they require).
func New(analyzers []*analysis.Analyzer, opts Options) *Engine {
	e := &Engine{analyzers: analyzers, opts: opts, mem: make(map[entryName][]byte), exports: make(map[cache.Key]string), hashes: make(map[string]fileHash), full: make(map[cache.Key]*entry), preparing: make(map[string]chan struct{})}
	var all []*analysis.Analyzer
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			visit(r)
		}
		all = append(all, a)
	}
	for _, a := range analyzers {
		visit(a)
	}
	// The fact-making analyzers and what they require, in the order
	// of all (requirements first).
	needed := make(map[*analysis.Analyzer]bool)
	var mark func(a *analysis.Analyzer)
	mark = func(a *analysis.Analyzer) {
		if needed[a] {
			return
		}
		needed[a] = true
		for _, r := range a.Requires {
			mark(r)
		}
	}
	for _, a := range all {
		if len(a.FactTypes) > 0 {
			mark(a)
		}
		for _, f := range a.FactTypes {
			gob.Register(f)
		}
	}
	for _, a := range all {
		if needed[a] {
			e.factOnly = append(e.factOnly, a)
		}
	}
	return e
}

// Position is a place in a file: Line and Column (in bytes) from 1.
type Position struct {
	Filename     string
	Line, Column int
}

func (p Position) String() string {
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// A Diagnostic is an analysis.Diagnostic with positions that outlive the
// analysis (and the process: they are cached).
type Diagnostic struct {
	Analyzer               string
	Category, Message, URL string
	Pos, End               Position // End.Line 0: none
	Related                []Related
	SuggestedFixes         []Fix
}

// Related is an analysis.RelatedInformation.
type Related struct {
	Pos, End Position
	Message  string
}

// Fix is an analysis.SuggestedFix.
type Fix struct {
	Message string
	Edits   []Edit
}

// Edit replaces the text between Pos and End with New.
type Edit struct {
	Pos, End Position
	New      []byte
}

// Package is the outcome for one of the packages the patterns named.
type Package struct {
	ID, PkgPath string
	GoFiles     []string
	Diagnostics []Diagnostic
	// Errors are why the package was not analyzed (it does not load or
	// type-check, or a dependency does not): each as "position: message".
	Errors []string
	// AnalysisErrors are the analyzers that failed, "analyzer: error".
	AnalysisErrors []string
	Cached         bool // the result came from the cache
}

// Result is the outcome of a run.
type Result struct {
	Packages []*Package // the roots, in the order packages.Load gave them
	// Errors are every package's load and type errors, each once, in
	// dependency order.
	Errors []string
	// TestErrors are the errors of test variants (a package with its
	// _test.go files, an external test package) that are not also their
	// package's: the test files do not type-check. Each once.
	TestErrors []string
	// Analyzed and Cached count the packages analyzed and those whose
	// results (facts, findings) came from the cache or from memory.
	Analyzed, Cached int
	// Timings are the analyzed packages' durations, longest first.
	Timings []Timing
	// Load is the time spent loading the package graph (the go command),
	// or checking that the last run's still stands.
	Load time.Duration
	// Graph says how the package graph was had: GraphLoaded,
	// GraphReused or GraphUpdated.
	Graph string
	// Phases add up, over the packages analyzed, the time spent parsing,
	// type-checking, reading export data and facts, and in each analyzer;
	// PhaseExportFiles is the time the go command took to list the
	// dependencies' export data, when the engine did not know it.
	Phases map[string]time.Duration
}

// PhaseExportFiles is the phase of asking the go command for export data.
const PhaseExportFiles = "export files (go list -export)"

// Timing is how long a package took to type-check and analyze.
type Timing struct {
	ID       string
	Duration time.Duration
}

// unit is one package of the graph.
type unit struct {
	pkg     *packages.Package
	root    bool
	test    bool // a test variant: its types come from source, never export data
	key     cache.Key
	deps    []*unit // direct
	broken  bool
	errs    []string
	run     bool // analyze it in this run
	full    bool // all analyzers (a root), not only the fact-making ones
	needed  bool // its facts are needed
	facts   []byte
	pkgOut  *Package
	types   *types.Package // source types of a test variant, while dependents need them
	cached  *entry         // the reused result of a root
	done    chan struct{}
	decoded map[types.Object][]analysis.Fact
}

type entryName struct {
	key  cache.Key
	kind string // "f": facts only; "a": facts and findings
}

// entry is what is cached for a package.
type entry struct {
	Facts          []byte
	Diagnostics    []Diagnostic
	AnalysisErrors []string
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule

// Run loads the packages the patterns name and analyzes them. The error
// is for a failure to load anything at all; a package's own errors are in
// the result.
func (e *Engine) Run(cfg Config, patterns ...string) (*Result, error) {
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	e.waitPrepared(ctx, cfg.Overlay)
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.run(ctx, cfg, patterns, true)
}

func (e *Engine) run(ctx context.Context, cfg Config, patterns []string, reuse bool) (*Result, error) {
	pcfg := &packages.Config{Context: ctx, Mode: loadMode, Dir: cfg.Dir, Env: cfg.Env, Tests: cfg.Tests, Overlay: cfg.Overlay}
	t0 := time.Now()
	memo, how := e.graph.reuse(cfg, patterns)
	var pkgs []*packages.Package
	if how == "" || !reuse {
		var err error
		pkgs, err = packages.Load(pcfg, patterns...)
		if err == nil && len(pkgs) == 0 {
			err = fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
		}
		if err != nil {
			return nil, err
		}
		e.graph = newGraphMemo(cfg, patterns, pkgs)
		how = GraphLoaded
		if len(e.opts.PrepareOnLoad) > 0 {
			e.prepareLocked(cfg, patterns, e.opts.PrepareOnLoad, false)
		}
	} else {
		e.graph = memo
		pkgs = memo.pkgs
	}
	res, changed, err := e.plan(ctx, cfg, pcfg, patterns, pkgs, planOptions{how: how, load: time.Since(t0)})
	if changed && how != GraphLoaded {
		// A file changed on disk since the graph was loaded: its
		// imports may have too.
		e.graph = nil
		return e.run(ctx, cfg, patterns, false)
	}
	return res, err
}

// planOptions are plan's.
type planOptions struct {
	how  string        // how the graph was had
	load time.Duration // and how long that took
	// factsOnly: the roots are analyzed as dependencies are, for their
	// facts (Prepare's).
	factsOnly bool
	// exports are export data files by package ID, known to stand for
	// the packages' files as they are now (Prepare's).
	exports map[string]string
}

// plan keys the packages of the graph, reads what it can from the cache
// and memory, and analyzes the rest. changed reports a file of the graph
// that changed on disk since an earlier run read it: then, unless the
// graph was just loaded, the result is nil and the caller loads it again.
func (e *Engine) plan(ctx context.Context, cfg Config, pcfg *packages.Config, patterns []string, pkgs []*packages.Package, opts planOptions) (_ *Result, changed bool, _ error) {
	salt := e.salt()

	// The units, dependencies first.
	units := make(map[string]*unit)
	var order []*unit
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		u := &unit{pkg: p, test: p.ID != p.PkgPath || strings.HasSuffix(p.PkgPath, "_test"), done: make(chan struct{})}
		for _, path := range slices.Sorted(mapsKeys(p.Imports)) {
			if d := units[p.Imports[path].ID]; d != nil {
				u.deps = append(u.deps, d)
			}
		}
		units[p.ID] = u
		order = append(order, u)
	})
	res := &Result{Load: opts.load, Graph: opts.how, Phases: make(map[string]time.Duration)}
	seenErr := make(map[string]bool)
	addErr := func(s string) {
		if !seenErr[s] {
			seenErr[s] = true
			res.Errors = append(res.Errors, s)
		}
	}
	for _, p := range pkgs {
		if isTestMain(p) {
			continue
		}
		u := units[p.ID]
		if opts.factsOnly {
			u.needed = true
			continue
		}
		u.root, u.full = true, true
		u.pkgOut = &Package{ID: p.ID, PkgPath: p.PkgPath, GoFiles: p.GoFiles}
		res.Packages = append(res.Packages, u.pkgOut)
	}

	// Keys, dependencies first; broken packages and their dependents.
	if changed := e.hashFiles(order, cfg.Overlay); changed && opts.how != GraphLoaded {
		return nil, true, nil
	}
	for _, u := range order {
		for _, pe := range u.pkg.Errors {
			u.errs = append(u.errs, pe.Error())
			u.broken = true
		}
		for _, d := range u.deps {
			if d.broken {
				u.broken = true
			}
		}
		h := sha256.New()
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", salt, u.pkg.ID, u.pkg.PkgPath, u.pkg.Name)
		if m := u.pkg.Module; m != nil {
			fmt.Fprintf(h, "go %s\x00", m.GoVersion)
		}
		h.Write(u.key[:]) // the files' hash, from hashFiles
		for _, d := range u.deps {
			fmt.Fprintf(h, "%s\x00", d.pkg.ID)
			h.Write(d.key[:])
		}
		h.Sum(u.key[:0])
		if f := opts.exports[u.pkg.ID]; f != "" && !u.test && !u.broken {
			e.exports[u.key] = f
		}
	}

	// What runs: roots without a cached result, dependencies whose facts
	// are needed and not cached, test variants a running package imports.
	for i := len(order) - 1; i >= 0; i-- {
		u := order[i]
		if u.broken || isTestMain(u.pkg) {
			continue
		}
		// Read now what is reused (an entry trimmed by another run
		// meanwhile is then a miss, not a hole later).
		if u.full {
			if ent, ok := e.getEntry(entryName{u.key, "a"}); ok {
				u.cached, u.facts = ent, ent.Facts
			} else {
				u.run = true
			}
		} else if u.needed && !u.run {
			if _, ok := e.factsOf(u); !ok {
				u.run = true
			}
		}
		if u.run {
			markNeeded(u)
		}
	}
	var work []*unit
	for _, u := range order {
		if u.run {
			work = append(work, u)
		}
	}
	if len(work) > 0 {
		if err := e.analyzeUnits(ctx, cfg, pcfg, patterns, order, units, work, res); err != nil {
			return nil, false, err
		}
	}
	// Results of the roots, and the errors.
	for _, u := range order {
		if !u.test {
			for _, s := range u.errs {
				addErr(s)
			}
		}
	}
	for _, u := range order {
		if u.test {
			for _, s := range u.errs {
				if !seenErr[s] {
					seenErr[s] = true
					res.TestErrors = append(res.TestErrors, s)
				}
			}
		}
		if !u.root || u.pkgOut == nil {
			continue
		}
		if u.broken {
			u.pkgOut.Errors = u.errs
			if len(u.errs) == 0 {
				u.pkgOut.Errors = []string{"a dependency does not compile"}
			}
			continue
		}
		if ent := u.cached; !u.run && ent != nil {
			u.pkgOut.Diagnostics, u.pkgOut.AnalysisErrors, u.pkgOut.Cached = ent.Diagnostics, ent.AnalysisErrors, true
		}
	}
	for _, u := range order {
		if !u.run && !u.broken && (u.root || u.needed) {
			res.Cached++
		}
	}
	if !opts.factsOnly {
		// Whether the next run that analyzes a root would need the go
		// command for export data (Prepare fetches it ahead).
		e.needExports = false
		for _, u := range order {
			if !u.root && !u.test && !u.broken && u.pkg.PkgPath != "unsafe" && !isTestMain(u.pkg) && e.exports[u.key] == "" {
				e.needExports = true
				break
			}
		}
	}
	if e.opts.Cache != nil {
		e.opts.Cache.Trim()
	}
	sort.Slice(res.Timings, func(i, j int) bool { return res.Timings[i].Duration > res.Timings[j].Duration })
	return res, false, nil
}

// markNeeded marks every dependency of u, transitively, as one whose
// facts are needed; a test variant among them must run, for its types.
func markNeeded(u *unit) {
	for _, d := range u.deps {
		if d.needed {
			continue
		}
		d.needed = true
		if d.test {
			d.run = true
		}
		markNeeded(d)
	}
}

func isTestMain(p *packages.Package) bool {
	return p.Name == "main" && strings.HasSuffix(p.ID, ".test")
}

func mapsKeys[M ~map[K]V, K comparable, V any](m M) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// hashFiles sets each unit's key to the hash of its files' names and
// contents (an overlay's, else the disk's), on every core. A file whose
// size and modification time have not changed since an earlier run of the
// engine is not read again.
func (e *Engine) hashFiles(order []*unit, overlay map[string][]byte) (changed bool) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := make(chan *unit)
	sum := func(f string) ([sha256.Size]byte, error) {
		if b, ok := overlay[f]; ok {
			return sha256.Sum256(b), nil
		}
		fi, err := os.Stat(f)
		if err != nil {
			return [sha256.Size]byte{}, err
		}
		mu.Lock()
		h, ok := e.hashes[f]
		mu.Unlock()
		// A time too recent could still change within its clock tick.
		if ok && h.size == fi.Size() && h.mod.Equal(fi.ModTime()) {
			return h.sum, nil
		}
		mu.Lock()
		changed = true
		mu.Unlock()
		b, err := os.ReadFile(f)
		if err != nil {
			return [sha256.Size]byte{}, err
		}
		h = fileHash{int64(len(b)), fi.ModTime(), sha256.Sum256(b)}
		if int64(len(b)) == fi.Size() && time.Since(fi.ModTime()) > 2*time.Second {
			mu.Lock()
			e.hashes[f] = h
			mu.Unlock()
		}
		return h.sum, nil
	}
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for u := range next {
				h := sha256.New()
				files := slices.Concat(u.pkg.GoFiles, u.pkg.CompiledGoFiles, u.pkg.OtherFiles, u.pkg.EmbedFiles)
				if isTestMain(u.pkg) {
					// The go command's generated test main, in its
					// cache, is never analyzed; its file is made anew
					// (or its time refreshed by the cache) by every
					// load, so its time says nothing of an edit.
					files = nil
					fmt.Fprintf(h, "%s\x00", u.pkg.ID)
				}
				for _, f := range files {
					s, err := sum(f)
					if err != nil {
						fmt.Fprintf(h, "%s\x00error %v\x00", f, err)
						continue
					}
					fmt.Fprintf(h, "%s\x00%x\x00", f, s)
				}
				h.Sum(u.key[:0])
			}
		})
	}
	for _, u := range order {
		next <- u
	}
	close(next)
	wg.Wait()
	return changed
}

// salt is what every key starts with: the analyzers' version, the Go
// toolchain that reads the export data, the analyzers and their flags.
func (e *Engine) salt() string {
	if e.version == "" {
		e.version = e.opts.Version
		if e.version == "" {
			e.version = executableHash()
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "resilint %s %s %s/%s %s\n", e.version, runtime.Version(), runtime.GOOS, runtime.GOARCH, e.opts.Salt)
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		fmt.Fprintf(&b, "%s", a.Name)
		a.Flags.VisitAll(func(f *flag.Flag) { fmt.Fprintf(&b, " -%s=%s", f.Name, f.Value) })
		b.WriteString("\n")
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range e.analyzers {
		visit(a)
	}
	return b.String()
}

func executableHash() string {
	name, err := os.Executable()
	if err != nil {
		return "unknown " + time.Now().String() // never reuse
	}
	f, err := os.Open(name)
	if err != nil {
		return "unknown " + time.Now().String()
	}
	defer f.Close()
	h := sha256.New()
	io.Copy(h, f)
	return fmt.Sprintf("%x", h.Sum(nil))
}

func (e *Engine) getEntry(n entryName) (*entry, bool) {
	if ent, ok := e.full[n.key]; ok && n.kind == "a" {
		return ent, true
	}
	if e.opts.Cache == nil {
		return nil, false
	}
	data, ok := e.opts.Cache.Get(n.key, n.kind)
	if !ok {
		return nil, false
	}
	var ent entry
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&ent) != nil {
		return nil, false
	}
	return &ent, true
}

// factsOf returns the encoded facts of a unit that did not run.
func (e *Engine) factsOf(u *unit) ([]byte, bool) {
	if u.facts != nil {
		return u.facts, true
	}
	for _, kind := range []string{"f", "a"} {
		n := entryName{u.key, kind}
		if b, ok := e.mem[n]; ok {
			u.facts = b
			return b, true
		}
		if ent, ok := e.getEntry(n); ok {
			u.facts = ent.Facts
			e.mem[n] = ent.Facts
			return ent.Facts, true
		}
	}
	return nil, false
}

// analyzeUnits type-checks and analyzes the work, dependencies first.
func (e *Engine) analyzeUnits(ctx context.Context, cfg Config, pcfg *packages.Config, patterns []string, order []*unit, units map[string]*unit, work []*unit, res *Result) error {
	need := make(map[*unit]bool)
	for _, u := range work {
		var visit func(d *unit)
		visit = func(d *unit) {
			for _, dd := range d.deps {
				if !need[dd] {
					need[dd] = true
					visit(dd)
				}
			}
		}
		visit(u)
	}
	// Export data of the dependencies that are not test variants: the
	// files an earlier run found, else what the go command builds.
	exports := make(map[string]string) // by package ID
	known := true
	for u := range need {
		if f, ok := e.exports[u.key]; ok {
			exports[u.pkg.ID] = f
		} else if !u.test && u.pkg.PkgPath != "unsafe" {
			known = false
		}
	}
	if !known {
		ecfg := *pcfg
		ecfg.Mode |= packages.NeedExportFile
		t0 := time.Now()
		epkgs, err := packages.Load(&ecfg, patterns...)
		if err != nil {
			return err
		}
		res.Phases[PhaseExportFiles] += time.Since(t0)
		packages.Visit(epkgs, nil, func(p *packages.Package) { exports[p.ID] = p.ExportFile })
		for _, u := range order {
			if f := exports[u.pkg.ID]; f != "" && !u.test {
				e.exports[u.key] = f
			}
		}
	}

	// Read the export data the work needs, dependencies first, before
	// any type-checking starts: the types are shared, read-only after.
	fset := token.NewFileSet()
	if e.universe == nil {
		e.universe = newUniverse()
	}
	uv := e.universe
	for _, u := range order {
		// A dependency whose export data changed (the server's edit of a
		// package others import) makes the shared types stale: start anew.
		if f, ok := uv.from[u.pkg.PkgPath]; ok && need[u] && !u.test && f != exports[u.pkg.ID] {
			e.universe = newUniverse()
			uv = e.universe
			break
		}
	}
	t0 := time.Now()
	for _, u := range order {
		if !need[u] || u.test || u.pkg.PkgPath == "unsafe" {
			continue
		}
		if err := uv.load(u.pkg.PkgPath, exports[u.pkg.ID]); err != nil {
			u.broken = true
			u.errs = append(u.errs, fmt.Sprintf("%s: %v", u.pkg.ID, err))
		}
	}
	res.Phases["export data"] += time.Since(t0)
	// Those whose dependencies broke are not analyzed.
	for _, u := range work {
		for _, d := range u.deps {
			if d.broken {
				u.broken = true
			}
		}
	}

	par := cfg.Parallel
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	var (
		mu  sync.Mutex // guards the units' facts, decoded facts and res
		wg  sync.WaitGroup
		sem = make(chan struct{}, par)
	)
	for _, u := range order {
		if !u.run {
			close(u.done)
		}
	}
	// A test variant's types and decoded facts are kept while a package
	// that sees them (a transitive dependent) has yet to be analyzed.
	users := make(map[*unit]int)
	closures := make(map[*unit][]*unit)
	for _, w := range work {
		for _, d := range closure(w) {
			if d.test {
				users[d]++
				closures[w] = append(closures[w], d)
			}
		}
	}
	release := func(u *unit) {
		mu.Lock()
		defer mu.Unlock()
		for _, d := range closures[u] {
			if users[d]--; users[d] == 0 {
				d.types, d.decoded = nil, nil
			}
		}
		if users[u] == 0 {
			u.types, u.decoded = nil, nil
		}
	}
	for _, u := range work {
		wg.Go(func() {
			defer close(u.done)
			defer release(u)
			for _, d := range u.deps {
				<-d.done
			}
			// A dependency that failed to type-check in this run (a test
			// variant, checked from source) breaks u too, without a
			// second error for the import that fails.
			mu.Lock()
			for _, d := range u.deps {
				if d.broken {
					u.broken = true
				}
			}
			mu.Unlock()
			if u.broken || ctx.Err() != nil {
				mu.Lock()
				u.broken = true
				mu.Unlock()
				return
			}
			sem <- struct{}{}
			defer func() { <-sem }()
			t0 := time.Now()
			e.analyzeUnit(cfg, fset, uv, u, &mu, res.Phases)
			mu.Lock()
			res.Analyzed++
			res.Timings = append(res.Timings, Timing{u.pkg.ID, time.Since(t0)})
			mu.Unlock()
		})
	}
	wg.Wait()
	return ctx.Err()
}
