package engine

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"net/url"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"
)

// universe holds the types read from export data, shared by every
// package analyzed: each dependency is read once per engine.
type universe struct {
	fset    *token.FileSet
	pkgs    map[string]*types.Package
	from    map[string]string // the export file each package was read from
	decoded map[string]map[types.Object][]analysis.Fact
}

func newUniverse() *universe {
	return &universe{fset: token.NewFileSet(), pkgs: make(map[string]*types.Package), from: make(map[string]string), decoded: make(map[string]map[types.Object][]analysis.Fact)}
}

// load reads the export data of path from file, unless it was read from
// that file already. A package read before from another file (it changed)
// makes a new universe impossible to share: callers reset it.
func (uv *universe) load(path, file string) error {
	if file == "" {
		return fmt.Errorf("no export data (the package does not compile)")
	}
	if uv.from[path] == file {
		return nil
	}
	if old, ok := uv.from[path]; ok && old != file {
		return errStale
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return fmt.Errorf("reading export data: %v", err)
	}
	if _, err := gcexportdata.Read(r, uv.fset, uv.pkgs, path); err != nil {
		return fmt.Errorf("reading export data: %v", err)
	}
	uv.from[path] = file
	return nil
}

var errStale = fmt.Errorf("export data changed")

// factRecord is one fact, its object named by its path in its package
// ("" for a package fact).
type factRecord struct {
	Path objectpath.Path
	Fact analysis.Fact
}

type factKey struct {
	obj types.Object // nil for a package fact
	typ reflect.Type
}

// analyzeUnit parses and type-checks u from source, runs the analyzers
// (all of them on a root, the fact-making ones on a dependency), and keeps
// its facts and findings.
func (e *Engine) analyzeUnit(cfg Config, _ *token.FileSet, uv *universe, u *unit, mu *sync.Mutex, phases map[string]time.Duration) {
	t := time.Now()
	phase := func(name string) {
		now := time.Now()
		mu.Lock()
		phases[name] += now.Sub(t)
		mu.Unlock()
		t = now
	}
	fset := uv.fset // one file set: positions of imported objects and of the syntax
	p := u.pkg
	fail := func(s string) {
		mu.Lock()
		u.broken = true
		u.errs = append(u.errs, s)
		mu.Unlock()
	}
	var files []*ast.File
	for _, name := range p.CompiledGoFiles {
		src, ok := cfg.Overlay[name]
		if !ok {
			var err error
			if src, err = os.ReadFile(name); err != nil {
				fail(err.Error())
				return
			}
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			fail(err.Error())
			return
		}
		files = append(files, f)
	}
	phase("parse")
	// The importer: test variants from their source types, the rest from
	// the universe.
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		dp := p.Imports[path]
		if dp == nil {
			return nil, fmt.Errorf("%s is not a dependency of %s", path, p.ID)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, d := range u.deps {
			if d.pkg == dp && d.test {
				if d.types == nil {
					return nil, fmt.Errorf("%s was not type-checked", dp.ID)
				}
				return d.types, nil
			}
		}
		if tp := uv.pkgs[dp.PkgPath]; tp != nil && uv.from[dp.PkgPath] != "" {
			return tp, nil
		}
		return nil, fmt.Errorf("no export data for %s", dp.PkgPath)
	})
	var typeErrs []string
	tc := &types.Config{
		Importer: imp,
		Sizes:    types.SizesFor("gc", goarch(cfg.Env)),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				typeErrs = append(typeErrs, fmt.Sprintf("%s: %s", te.Fset.Position(te.Pos), te.Msg))
			} else {
				typeErrs = append(typeErrs, err.Error())
			}
		},
	}
	if m := p.Module; m != nil && m.GoVersion != "" {
		tc.GoVersion = "go" + m.GoVersion
	}
	info := &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	tpkg, _ := tc.Check(p.PkgPath, fset, files, info)
	phase("type-check")
	if len(typeErrs) > 0 {
		mu.Lock()
		u.broken = true
		u.errs = append(u.errs, typeErrs...)
		mu.Unlock()
		return
	}

	// The facts this package can see: its dependencies', decoded against
	// the types it sees them through.
	facts := make(map[factKey]analysis.Fact)
	mu.Lock()
	for _, d := range closure(u) {
		var dt *types.Package
		if d.test {
			dt = d.types
		} else {
			dt = uv.pkgs[d.pkg.PkgPath]
		}
		if dt == nil {
			continue
		}
		dec := e.decodeFacts(uv, d, dt)
		for obj, fs := range dec {
			for _, f := range fs {
				facts[factKey{obj, reflect.TypeOf(f)}] = f
			}
		}
	}
	mu.Unlock()
	phase("decode facts")
	own := make(map[factKey]analysis.Fact)

	analyzers := e.factOnly
	if u.full {
		analyzers = e.analyzersWithRequires()
	}
	results := make(map[*analysis.Analyzer]any)
	failed := make(map[*analysis.Analyzer]bool)
	var diags []Diagnostic
	var analysisErrs []string
	for _, a := range analyzers {
		skip := false
		for _, r := range a.Requires {
			if failed[r] {
				skip = true
			}
		}
		if skip {
			failed[a] = true
			continue
		}
		factTypes := make(map[reflect.Type]bool)
		for _, f := range a.FactTypes {
			factTypes[reflect.TypeOf(f)] = true
		}
		pass := &analysis.Pass{
			Analyzer:     a,
			Fset:         fset,
			Files:        files,
			OtherFiles:   p.OtherFiles,
			IgnoredFiles: p.IgnoredFiles,
			Pkg:          tpkg,
			TypesInfo:    info,
			TypesSizes:   tc.Sizes,
			ResultOf:     make(map[*analysis.Analyzer]any),
			Module:       module(p),
			ReadFile: func(name string) ([]byte, error) {
				if b, ok := cfg.Overlay[name]; ok {
					return b, nil
				}
				return os.ReadFile(name)
			},
		}
		for _, r := range a.Requires {
			pass.ResultOf[r] = results[r]
		}
		pass.Report = func(d analysis.Diagnostic) {
			if u.full {
				diags = append(diags, convert(fset, a, d))
			}
		}
		pass.ImportObjectFact = func(obj types.Object, ptr analysis.Fact) bool {
			if obj == nil {
				panic("nil object given to ImportObjectFact")
			}
			k := factKey{obj, reflect.TypeOf(ptr)}
			f, ok := own[k]
			if !ok {
				f, ok = facts[k]
			}
			if ok {
				reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
			}
			return ok
		}
		pass.ExportObjectFact = func(obj types.Object, f analysis.Fact) {
			if obj.Pkg() != tpkg {
				panic(fmt.Sprintf("%s: ExportObjectFact(%s, %T): the object is not of package %s", a.Name, obj, f, tpkg.Path()))
			}
			own[factKey{obj, reflect.TypeOf(f)}] = f
		}
		pass.ImportPackageFact = func(pkg *types.Package, ptr analysis.Fact) bool {
			k := factKey{pkgObj(pkg), reflect.TypeOf(ptr)}
			f, ok := own[k]
			if !ok {
				f, ok = facts[k]
			}
			if ok {
				reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
			}
			return ok
		}
		pass.ExportPackageFact = func(f analysis.Fact) {
			own[factKey{pkgObj(tpkg), reflect.TypeOf(f)}] = f
		}
		pass.AllObjectFacts = func() []analysis.ObjectFact {
			var out []analysis.ObjectFact
			for _, m := range []map[factKey]analysis.Fact{facts, own} {
				for k, f := range m {
					if _, isPkg := k.obj.(*pkgName); !isPkg && factTypes[k.typ] {
						out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
					}
				}
			}
			return out
		}
		pass.AllPackageFacts = func() []analysis.PackageFact {
			var out []analysis.PackageFact
			for _, m := range []map[factKey]analysis.Fact{facts, own} {
				for k, f := range m {
					if pn, isPkg := k.obj.(*pkgName); isPkg && factTypes[k.typ] {
						out = append(out, analysis.PackageFact{Package: pn.pkg, Fact: f})
					}
				}
			}
			return out
		}
		r, err := runPass(a, pass)
		phase("analyzer " + a.Name)
		if err != nil {
			failed[a] = true
			if u.full {
				analysisErrs = append(analysisErrs, fmt.Sprintf("%s: %s: %v", p.ID, a.Name, err))
			}
			continue
		}
		results[a] = r
	}

	// Keep the facts, encoded, and the findings.
	var recs []factRecord
	var enc objectpath.Encoder
	for k, f := range own {
		if pn, ok := k.obj.(*pkgName); ok {
			_ = pn
			recs = append(recs, factRecord{"", f})
			continue
		}
		path, err := enc.For(k.obj)
		if err != nil {
			continue // not reachable from another package
		}
		recs = append(recs, factRecord{path, f})
	}
	sort.SliceStable(recs, func(i, j int) bool {
		if recs[i].Path != recs[j].Path {
			return recs[i].Path < recs[j].Path
		}
		return reflect.TypeOf(recs[i].Fact).String() < reflect.TypeOf(recs[j].Fact).String()
	})
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(recs); err != nil {
		analysisErrs = append(analysisErrs, fmt.Sprintf("%s: encoding facts: %v", p.ID, err))
	}
	factBytes := buf.Bytes()
	if factBytes == nil {
		factBytes = []byte{}
	}
	kind := "f"
	if u.full {
		kind = "a"
	}
	phase("encode facts")
	ent := &entry{Facts: factBytes, Diagnostics: diags, AnalysisErrors: analysisErrs}
	var ebuf bytes.Buffer
	gob.NewEncoder(&ebuf).Encode(ent)

	mu.Lock()
	defer mu.Unlock()
	u.facts = factBytes
	e.mem[entryName{u.key, kind}] = factBytes
	if u.full && len(analysisErrs) == 0 {
		e.full[u.key] = ent
	}
	if u.test {
		u.types = tpkg
	}
	if u.pkgOut != nil {
		u.pkgOut.Diagnostics = diags
		u.pkgOut.AnalysisErrors = analysisErrs
	}
	if e.opts.Cache != nil && len(analysisErrs) == 0 {
		e.opts.Cache.Put(u.key, kind, ebuf.Bytes())
	}
}

// runPass runs one analyzer, turning a panic into an error.
func runPass(a *analysis.Analyzer, pass *analysis.Pass) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	res, err = a.Run(pass)
	if err == nil && a.ResultType != nil && res != nil && reflect.TypeOf(res) != a.ResultType {
		err = fmt.Errorf("result of type %T, want %v", res, a.ResultType)
	}
	return res, err
}

// pkgName stands for a package in the facts maps (package facts).
type pkgName struct {
	types.Object
	pkg *types.Package
}

var (
	pkgNamesMu sync.Mutex
	pkgNames   = make(map[*types.Package]*pkgName)
)

func pkgObj(p *types.Package) types.Object {
	pkgNamesMu.Lock()
	defer pkgNamesMu.Unlock()
	n := pkgNames[p]
	if n == nil {
		n = &pkgName{pkg: p}
		pkgNames[p] = n
	}
	return n
}

// decodeFacts decodes the facts of d against dt, the package's types as
// its dependents see them. Those of a dependency read from export data
// are decoded once per engine.
func (e *Engine) decodeFacts(uv *universe, d *unit, dt *types.Package) map[types.Object][]analysis.Fact {
	if !d.test {
		if m, ok := uv.decoded[d.key.String()]; ok {
			return m
		}
	} else if d.decoded != nil {
		return d.decoded
	}
	m := make(map[types.Object][]analysis.Fact)
	if b, ok := e.factsOf(d); ok && len(b) > 0 {
		var recs []factRecord
		if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&recs); err == nil {
			for _, r := range recs {
				var obj types.Object
				if r.Path == "" {
					obj = pkgObj(dt)
				} else if o, err := objectpath.Object(dt, r.Path); err == nil {
					obj = o
				} else {
					continue
				}
				m[obj] = append(m[obj], r.Fact)
			}
		}
	}
	if d.test {
		d.decoded = m
	} else {
		uv.decoded[d.key.String()] = m
	}
	return m
}

// closure returns u's dependencies, transitively.
func closure(u *unit) []*unit {
	seen := make(map[*unit]bool)
	var out []*unit
	var visit func(x *unit)
	visit = func(x *unit) {
		for _, d := range x.deps {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
				visit(d)
			}
		}
	}
	visit(u)
	return out
}

func (e *Engine) analyzersWithRequires() []*analysis.Analyzer {
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
	for _, a := range e.analyzers {
		visit(a)
	}
	return all
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func goarch(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "GOARCH="); ok && v != "" {
			return v
		}
	}
	if v := os.Getenv("GOARCH"); v != "" && env == nil {
		return v
	}
	return runtime.GOARCH
}

func module(p *packages.Package) *analysis.Module {
	if p.Module == nil {
		return nil
	}
	return &analysis.Module{Path: p.Module.Path, Version: p.Module.Version, GoVersion: p.Module.GoVersion}
}

// convert turns a diagnostic's positions into file, line and column.
func convert(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic) Diagnostic {
	pos := func(p token.Pos) Position {
		if !p.IsValid() {
			return Position{}
		}
		q := fset.Position(p)
		return Position{q.Filename, q.Line, q.Column}
	}
	out := Diagnostic{Analyzer: a.Name, Category: d.Category, Message: d.Message, URL: resolveURL(a, d), Pos: pos(d.Pos), End: pos(d.End)}
	for _, r := range d.Related {
		out.Related = append(out.Related, Related{pos(r.Pos), pos(r.End), r.Message})
	}
	for _, f := range d.SuggestedFixes {
		fx := Fix{Message: f.Message}
		for _, ed := range f.TextEdits {
			fx.Edits = append(fx.Edits, Edit{pos(ed.Pos), pos(ed.End), ed.NewText})
		}
		out.SuggestedFixes = append(out.SuggestedFixes, fx)
	}
	return out
}

// resolveURL is the diagnostic's documentation, as the x/tools drivers
// give it: its URL, or the category as a fragment, resolved against the
// analyzer's URL.
func resolveURL(a *analysis.Analyzer, d analysis.Diagnostic) string {
	ref := d.URL
	if ref == "" && d.Category != "" {
		ref = "#" + d.Category
	}
	if ref == "" {
		return a.URL
	}
	u, err := url.Parse(ref)
	if err != nil {
		return d.URL
	}
	base, err := url.Parse(a.URL)
	if err != nil {
		return d.URL
	}
	return base.ResolveReference(u).String()
}
