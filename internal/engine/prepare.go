package engine

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// Prepare readies, in the background, what the run after an edit of the
// packages of the last Run (with this cfg and these patterns) would
// otherwise ask the go command for:
//
//   - the export data of the packages' dependencies, when the last run
//     took every result from the cache and so read none;
//   - the packages of import paths that the edit may add (the language
//     server's: the imports its quick fixes add), with their export data
//     and facts, so that the run updates its package graph in memory.
//     Paths the graph holds, or that an earlier Prepare on the same
//     graph tried, are skipped.
//
// If cfg and patterns are not those of the last run, Prepare does
// nothing. A Run whose unsaved files import a path being prepared waits
// for it.
//
// A package prepared joins the graph only as update allows (see
// graphMemo.update): importable from the edited package as the go
// command would judge it. One that does not load, or has errors, or a
// dependency with errors, or a file among cfg's unsaved ones, is left
// out, and an edit that imports it loads the graph with the go command.
func (e *Engine) Prepare(cfg Config, patterns []string, paths []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.prepareLocked(cfg, patterns, paths, true)
}

// prepareLocked is Prepare with e.mu held; withExports says whether to read
// the dependencies' export data too, when the last run lacked it.
func (e *Engine) prepareLocked(cfg Config, patterns []string, paths []string, withExports bool) {
	g := e.graph
	if g == nil || g.what != graphKey(cfg, patterns) {
		return
	}
	e.pmu.Lock()
	defer e.pmu.Unlock()
	var missing []string
	for _, p := range paths {
		if g.known[p] == nil && !g.tried[p] && e.preparing[p] == nil && !slices.Contains(missing, p) {
			missing = append(missing, p)
		}
	}
	exports := withExports && e.needExports && !e.exporting
	if len(missing) == 0 && !exports {
		return
	}
	slices.Sort(missing)
	done := make(chan struct{})
	for _, p := range missing {
		e.preparing[p] = done
		g.tried[p] = true
	}
	e.exporting = e.exporting || exports
	e.bg.Go(func() {
		defer func() {
			e.pmu.Lock()
			for _, p := range missing {
				delete(e.preparing, p)
			}
			e.pmu.Unlock()
			close(done)
		}()
		if exports {
			e.prepareExports(cfg, g, patterns)
		}
		if len(missing) > 0 {
			e.prepare(cfg, g, missing)
		}
	})
}

// prepareExports reads the export data of the graph's dependencies, as a
// run that analyzes a root would.
func (e *Engine) prepareExports(cfg Config, g *graphMemo, patterns []string) {
	defer func() {
		e.mu.Lock()
		e.exporting = false
		e.mu.Unlock()
	}()
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	pcfg := &packages.Config{Context: ctx, Mode: loadMode | packages.NeedExportFile, Dir: cfg.Dir, Env: cfg.Env, Tests: cfg.Tests, Overlay: cfg.Overlay}
	loaded, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if cur := e.graph; cur == nil || cur.what != g.what || !cur.loadedAt.Equal(g.loadedAt) {
		return
	}
	exports := make(map[string]string)
	packages.Visit(loaded, nil, func(p *packages.Package) {
		if p.ExportFile != "" {
			exports[p.ID] = p.ExportFile
		}
	})
	// Keyed as the run keys them; the roots' facts are those of their
	// results, so nothing is analyzed unless the cache lost an entry.
	if _, _, err := e.plan(ctx, cfg, pcfg, patterns, loaded, planOptions{how: GraphLoaded, factsOnly: true, exports: exports}); err == nil {
		e.needExports = false
	}
}

// Wait waits until no Prepare is in progress.
func (e *Engine) Wait() { e.bg.Wait() }

func (e *Engine) prepare(cfg Config, g *graphMemo, paths []string) {
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	cfg.Tests = false
	pcfg := &packages.Config{Context: ctx, Mode: loadMode | packages.NeedExportFile, Dir: cfg.Dir, Env: cfg.Env, Overlay: cfg.Overlay}
	loaded, err := packages.Load(pcfg, paths...)
	if err != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	cur := e.graph
	if cur == nil || cur.what != g.what || !cur.loadedAt.Equal(g.loadedAt) {
		return // loaded again since: the next analysis prepares anew
	}
	// The whole packages: loaded without errors, dependencies too, none
	// a test variant or with an unsaved file.
	whole := make(map[*packages.Package]bool)
	packages.Visit(loaded, nil, func(p *packages.Package) {
		w := len(p.Errors) == 0 && p.ID == p.PkgPath && p.ExportFile != ""
		for _, f := range slices.Concat(p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles) {
			if _, ok := cfg.Overlay[f]; ok {
				w = false
			}
		}
		for _, d := range p.Imports {
			w = w && (whole[d] || d.PkgPath == "unsafe")
		}
		whole[p] = w
	})
	// Join them to the graph's known packages, those it holds already
	// standing for themselves.
	known := maps.Clone(cur.known)
	exports := make(map[string]string)
	joined := make(map[*packages.Package]*packages.Package)
	var join func(p *packages.Package) *packages.Package
	join = func(p *packages.Package) *packages.Package {
		if q, ok := joined[p]; ok {
			return q
		}
		exports[p.ID] = p.ExportFile
		if k := known[p.ID]; k != nil {
			joined[p] = k
			return k
		}
		q := *p
		q.Imports = make(map[string]*packages.Package, len(p.Imports))
		joined[p] = &q
		for path, d := range p.Imports {
			q.Imports[path] = join(d)
		}
		known[p.ID] = &q
		return &q
	}
	var roots []*packages.Package
	for _, p := range loaded {
		if whole[p] {
			roots = append(roots, join(p))
		}
	}
	if len(roots) == 0 {
		return
	}
	// Their facts, now rather than after the edit.
	if _, _, err := e.plan(ctx, cfg, pcfg, paths, roots, planOptions{how: GraphLoaded, factsOnly: true, exports: exports}); err != nil {
		return
	}
	// Watched as the graph's own: a directory or go.mod that changes
	// makes the next run load the graph again.
	u := *cur
	u.known = known
	u.stamps, u.listings = maps.Clone(cur.stamps), maps.Clone(cur.listings)
	for _, p := range joined {
		if cur.known[p.ID] != nil {
			continue
		}
		u.watch(p)
	}
	e.graph = &u
}

// waitPrepared waits for the Prepare calls in progress whose paths the
// unsaved files import.
func (e *Engine) waitPrepared(ctx context.Context, overlay map[string][]byte) {
	e.pmu.Lock()
	if len(e.preparing) == 0 {
		e.pmu.Unlock()
		return
	}
	var waits []chan struct{}
	for name, src := range overlay {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		for _, imp := range header(name, src).imports {
			if ch := e.preparing[imp]; ch != nil && !slices.Contains(waits, ch) {
				waits = append(waits, ch)
			}
		}
	}
	e.pmu.Unlock()
	for _, ch := range waits {
		select {
		case <-ch:
		case <-ctx.Done():
			return
		case <-time.After(time.Minute):
			return
		}
	}
}
