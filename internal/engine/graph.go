package engine

import (
	"go/build"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// graphMemo is the package graph of the last run, reused by the next run
// (the language server's, after an edit) while nothing that decides the
// graph has changed: the same patterns, directory and environment; the
// same unsaved files, each with the same package clause and imports; no
// file added to or removed from the roots' directories; go.mod and go.sum
// untouched; and no file of the graph changed on disk (hashFiles tells,
// and the run loads the graph again).
//
// When only the imports of unsaved files changed, and every import added
// is of a package the graph holds already, importable from the edited
// package as the go command would judge it, the graph is updated in
// memory instead (update).
type graphMemo struct {
	what     string
	pkgs     []*packages.Package
	overlay  map[string]fileHeader // per unsaved file: its package clause, constraints and imports
	stamps   map[string]time.Time
	listings map[string]string // per directory: its file names
	loadedAt time.Time
	// known holds, by ID, every package of the load, of the updates
	// since and of Prepare: one no longer imported may be again.
	known map[string]*packages.Package
	// tried are the import paths Prepare was asked for since the load.
	tried map[string]bool
}

// How the graph of a run was had (Result.Graph).
const (
	GraphLoaded  = "loaded"  // from the go command
	GraphReused  = "reused"  // the last run's, unchanged
	GraphUpdated = "updated" // the last run's, with the imports of edited files changed in memory
)

func graphKey(cfg Config, patterns []string) string {
	return strings.Join([]string{cfg.Dir, strconv.FormatBool(cfg.Tests), strings.Join(cfg.Env, "\x00"), strings.Join(patterns, "\x00")}, "\x01")
}

func newGraphMemo(cfg Config, patterns []string, pkgs []*packages.Package) *graphMemo {
	g := &graphMemo{what: graphKey(cfg, patterns), pkgs: pkgs, overlay: make(map[string]fileHeader), stamps: make(map[string]time.Time), listings: make(map[string]string), loadedAt: time.Now(), known: make(map[string]*packages.Package), tried: make(map[string]bool)}
	packages.Visit(pkgs, nil, func(p *packages.Package) { g.known[p.ID] = p })
	for name, src := range cfg.Overlay {
		g.overlay[name] = header(name, src)
	}
	for _, p := range g.known {
		g.watch(p)
	}
	return g
}

// watch records the times of p's directories and go.mod, and the
// directories' listings, for reuse to compare.
func (g *graphMemo) watch(p *packages.Package) {
	if isTestMain(p) {
		return // generated, in the go command's cache
	}
	for _, f := range slices.Concat(p.GoFiles, p.OtherFiles, p.IgnoredFiles) {
		if d := filepath.Dir(f); g.listings[d] == "" {
			g.stamps[d] = modTime(d)
			g.listings[d] = listing(d)
		}
	}
	if p.Module != nil && p.Module.GoMod != "" {
		if _, ok := g.stamps[p.Module.GoMod]; !ok {
			g.stamps[p.Module.GoMod] = modTime(p.Module.GoMod)
			sum := strings.TrimSuffix(p.Module.GoMod, ".mod") + ".sum"
			g.stamps[sum] = modTime(sum)
		}
	}
}

// reuse returns the graph that stands for cfg, the memo's own or the
// memo's updated for the unsaved files' new imports, and how it was had
// (GraphReused, GraphUpdated); nil and "" when the go command must load
// it again.
func (g *graphMemo) reuse(cfg Config, patterns []string) (*graphMemo, string) {
	if g == nil || g.what != graphKey(cfg, patterns) || !slices.Equal(slices.Sorted(maps.Keys(g.overlay)), slices.Sorted(maps.Keys(cfg.Overlay))) {
		return nil, ""
	}
	for name, t := range g.stamps {
		// A time within the clock's tick of the load could hide a
		// later change. A directory whose time changed (an editor that
		// saves by renaming a new file into place) still stands if it
		// holds the same files.
		m := modTime(name)
		if m.Equal(t) && g.loadedAt.After(m.Add(2*time.Second)) {
			continue
		}
		if l, isDir := g.listings[name]; !isDir || listing(name) != l {
			return nil, ""
		}
	}
	changed := make(map[string]fileHeader)
	for name, src := range cfg.Overlay {
		if h := header(name, src); !h.equal(g.overlay[name]) {
			changed[name] = h
		}
	}
	if len(changed) == 0 {
		return g, GraphReused
	}
	if u := g.update(cfg, changed); u != nil {
		return u, GraphUpdated
	}
	return nil, ""
}

// update returns the graph with the imports of the packages of the
// changed files as those files now say, or nil when that graph might not
// be the one the go command would give, and only loading it tells:
//
//   - a changed file's package clause or build constraints changed, or
//     it does not parse, or it imports "C" or "embed" (cgo's files and
//     embedded files are the go command's to list);
//   - a package of a changed file is not in module mode, has errors, or
//     is not found;
//   - an import added is of a package the graph does not hold (under its
//     own path: not a test variant, not std's vendored copy), or that is
//     a command, or has errors (or one of its dependencies has), or
//     depends on the edited package (an import cycle, or a test variant
//     the go command would make);
//   - an import added has a path element "internal" or "vendor" (their
//     visibility rules are left to the go command), or is not a plain
//     import path;
//   - the package added is of another module than the edited package's
//     and not of the standard library, and the edited package's go.mod
//     does not require that module explicitly (the go command reports
//     an import from a module only implicitly required), unless it is a
//     workspace's main module;
//   - two packages of the new graph have paths that differ only in case.
func (g *graphMemo) update(cfg Config, changed map[string]fileHeader) *graphMemo {
	all := g.known
	edited := make(map[*packages.Package]bool)
	for name, h := range changed {
		old := g.overlay[name]
		if h.bad || old.bad || h.name != old.name || h.constraints != old.constraints || h.special() || old.special() {
			return nil
		}
		found := false
		for _, p := range all {
			if slices.Contains(p.CompiledGoFiles, name) {
				edited[p] = true
				found = true
			}
		}
		if !found {
			return nil
		}
	}
	requires := make(map[string]map[string]bool) // by go.mod file
	repl := make(map[*packages.Package]*packages.Package)
	for p := range edited {
		if p.Module == nil || p.Module.GoMod == "" || len(p.Errors) > 0 || !slices.Equal(p.GoFiles, p.CompiledGoFiles) {
			return nil
		}
		paths := make(map[string]bool)
		for _, f := range p.CompiledGoFiles {
			var h fileHeader
			if src, ok := cfg.Overlay[f]; ok {
				h = header(f, src)
			} else {
				src, err := os.ReadFile(f)
				if err != nil {
					return nil
				}
				h = header(f, src)
			}
			if h.bad || h.special() {
				return nil
			}
			for _, path := range h.imports {
				paths[path] = true
			}
		}
		imports := make(map[string]*packages.Package, len(paths))
		for path := range paths {
			if d, ok := p.Imports[path]; ok {
				imports[path] = d
				continue
			}
			d := all[path]
			if d == nil || !importable(p, d, path, requires) {
				return nil
			}
			imports[path] = d
		}
		q := *p
		q.Imports = imports
		repl[p] = &q
	}

	// Copy on write, from the edited packages up to the roots.
	var rewrite func(p *packages.Package) *packages.Package
	done := make(map[*packages.Package]*packages.Package)
	rewrite = func(p *packages.Package) *packages.Package {
		if r, ok := done[p]; ok {
			return r
		}
		done[p] = p // an import cycle (reported by the go command) stops here
		r := p
		if q, ok := repl[p]; ok {
			r = q
		}
		var imports map[string]*packages.Package
		for path, d := range r.Imports {
			if nd := rewrite(d); nd != d {
				if imports == nil {
					imports = maps.Clone(r.Imports)
				}
				imports[path] = nd
			}
		}
		if imports != nil {
			if r == p {
				q := *p
				r = &q
			}
			r.Imports = imports
		}
		done[p] = r
		return r
	}
	roots := make([]*packages.Package, len(g.pkgs))
	for i, p := range g.pkgs {
		roots[i] = rewrite(p)
	}
	for _, id := range slices.Sorted(maps.Keys(all)) {
		rewrite(all[id]) // those not imported now, for later
	}
	if cyclic(roots) {
		return nil
	}
	folded := make(map[string]string)
	collide := false
	packages.Visit(roots, nil, func(p *packages.Package) {
		k := strings.ToLower(p.PkgPath)
		if other, ok := folded[k]; ok && other != p.PkgPath {
			collide = true
		}
		folded[k] = p.PkgPath
	})
	if collide {
		return nil
	}
	u := &graphMemo{what: g.what, pkgs: roots, overlay: maps.Clone(g.overlay), stamps: g.stamps, listings: g.listings, loadedAt: g.loadedAt, known: maps.Clone(g.known), tried: g.tried}
	maps.Copy(u.overlay, changed)
	for p, r := range done {
		u.known[p.ID] = r
	}
	return u
}

// cyclic reports whether the graph has an import cycle (two packages
// edited at once can make one that neither edit makes alone).
func cyclic(roots []*packages.Package) bool {
	const (
		visiting = 1
		visited  = 2
	)
	state := make(map[*packages.Package]int)
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		switch state[p] {
		case visiting:
			return true
		case visited:
			return false
		}
		state[p] = visiting
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			if visit(p.Imports[path]) {
				return true
			}
		}
		state[p] = visited
		return false
	}
	for _, p := range roots {
		if visit(p) {
			return true
		}
	}
	return false
}

// importable reports whether p may import d, found in the graph under
// path, with no other outcome from the go command than the edge p → d.
func importable(p, d *packages.Package, path string, requires map[string]map[string]bool) bool {
	if d.ID != path || d.PkgPath != path || d.Name == "main" || build.IsLocalImport(path) || strings.HasPrefix(path, "/") {
		return false
	}
	for _, elem := range strings.Split(path, "/") {
		if elem == "internal" || elem == "vendor" || elem == "" {
			return false
		}
	}
	// The package under test, for a test variant.
	tested := strings.TrimSuffix(p.PkgPath, "_test")
	ok := true
	packages.Visit([]*packages.Package{d}, func(q *packages.Package) bool {
		if len(q.Errors) > 0 || q.PkgPath == tested || q.PkgPath == p.PkgPath {
			ok = false
		}
		return ok
	}, nil)
	if !ok {
		return false
	}
	switch m := d.Module; {
	case m == nil:
		first, _, _ := strings.Cut(path, "/")
		return !strings.Contains(first, ".") // the standard library
	case m.Path == p.Module.Path, m.Main:
		return true
	default:
		req, ok := requires[p.Module.GoMod]
		if !ok {
			req = make(map[string]bool)
			if b, err := os.ReadFile(p.Module.GoMod); err == nil {
				if f, err := modfile.ParseLax(p.Module.GoMod, b, nil); err == nil {
					for _, r := range f.Require {
						req[r.Mod.Path] = true
					}
				}
			}
			requires[p.Module.GoMod] = req
		}
		return req[m.Path]
	}
}

// fileHeader is what of a file decides the package graph: its package
// clause, build constraints and imports.
type fileHeader struct {
	bad         bool // it does not parse
	name        string
	constraints string
	imports     []string // sorted, each once
}

func (h fileHeader) equal(o fileHeader) bool {
	return h.bad == o.bad && h.name == o.name && h.constraints == o.constraints && slices.Equal(h.imports, o.imports)
}

// special reports an import whose effect on the package's files only the
// go command knows: cgo's, and embed's (its patterns).
func (h fileHeader) special() bool {
	return slices.Contains(h.imports, "C") || slices.Contains(h.imports, "embed")
}

func header(name string, src []byte) fileHeader {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return fileHeader{bad: true}
	}
	h := fileHeader{name: f.Name.Name}
	var b strings.Builder
	for _, c := range f.Comments {
		if c.Pos() < f.Package {
			for _, l := range c.List {
				if strings.HasPrefix(l.Text, "//go:build") || strings.HasPrefix(l.Text, "// +build") {
					b.WriteString(l.Text + "\x00")
				}
			}
		}
	}
	h.constraints = b.String()
	for _, s := range f.Imports {
		path, err := strconv.Unquote(s.Path.Value)
		if err != nil {
			return fileHeader{bad: true}
		}
		h.imports = append(h.imports, path)
	}
	slices.Sort(h.imports)
	h.imports = slices.Compact(h.imports)
	return h
}

// listing is the names in a directory, or "" when it cannot be read.
func listing(dir string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, e := range ents {
		b.WriteString(e.Name() + "\x00")
	}
	return b.String()
}

func modTime(name string) time.Time {
	fi, err := os.Stat(name)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
