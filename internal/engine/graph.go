package engine

import (
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// graphMemo is the package graph of the last run, reused by the next run
// (the language server's, after an edit) while nothing that decides the
// graph has changed: the same patterns, directory and environment; the
// same unsaved files, each with the same package clause and imports; no
// file added to or removed from the roots' directories; go.mod and go.sum
// untouched; and no file of the graph changed on disk (hashFiles tells,
// and the run loads the graph again).
type graphMemo struct {
	what     string
	pkgs     []*packages.Package
	overlay  map[string]string // per unsaved file: its package clause and imports
	stamps   map[string]time.Time
	listings map[string]string // per directory: its file names
	loadedAt time.Time
}

func graphKey(cfg Config, patterns []string) string {
	return strings.Join([]string{cfg.Dir, strconv.FormatBool(cfg.Tests), strings.Join(cfg.Env, "\x00"), strings.Join(patterns, "\x00")}, "\x01")
}

func newGraphMemo(cfg Config, patterns []string, pkgs []*packages.Package) *graphMemo {
	g := &graphMemo{what: graphKey(cfg, patterns), pkgs: pkgs, overlay: make(map[string]string), stamps: make(map[string]time.Time), listings: make(map[string]string), loadedAt: time.Now()}
	for name, src := range cfg.Overlay {
		g.overlay[name] = header(name, src)
	}
	for _, p := range pkgs {
		for _, f := range slices.Concat(p.GoFiles, p.OtherFiles, p.IgnoredFiles) {
			if d := filepath.Dir(f); g.listings[d] == "" {
				g.stamps[d] = modTime(d)
				g.listings[d] = listing(d)
			}
		}
		if p.Module != nil && p.Module.GoMod != "" {
			g.stamps[p.Module.GoMod] = modTime(p.Module.GoMod)
			sum := strings.TrimSuffix(p.Module.GoMod, ".mod") + ".sum"
			g.stamps[sum] = modTime(sum)
		}
	}
	return g
}

// reuse returns the memo's packages when they still stand for cfg.
func (g *graphMemo) reuse(cfg Config, patterns []string) ([]*packages.Package, bool) {
	if g == nil || g.what != graphKey(cfg, patterns) || !slices.Equal(slices.Sorted(maps.Keys(g.overlay)), slices.Sorted(maps.Keys(cfg.Overlay))) {
		return nil, false
	}
	for name, src := range cfg.Overlay {
		if g.overlay[name] != header(name, src) {
			return nil, false
		}
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
			return nil, false
		}
	}
	return g.pkgs, true
}

// header is what of a file decides the package graph: its package clause,
// build constraints and imports.
func header(name string, src []byte) string {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return "error"
	}
	var b strings.Builder
	b.WriteString(f.Name.Name)
	for _, c := range f.Comments {
		if c.Pos() < f.Package {
			for _, l := range c.List {
				if strings.HasPrefix(l.Text, "//go:build") || strings.HasPrefix(l.Text, "// +build") {
					b.WriteString("\x00" + l.Text)
				}
			}
		}
	}
	for _, s := range f.Imports {
		b.WriteString("\x00" + s.Path.Value)
	}
	return b.String()
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
