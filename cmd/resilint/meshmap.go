package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/resilint/resilint/analyzers/retrysites"
	"github.com/resilint/resilint/mesh/check"
	"github.com/resilint/resilint/mesh/graph"
)

// runMap is `resilint map -mesh DIR [packages]`: the amplification map of
// the code's retry sites that call hosts of the mesh, the mesh's routes
// and the services, as SVG (or DOT) on standard output or in -o's file.
func runMap(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("resilint map", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mesh := fs.String("mesh", "", "the Istio and Envoy configuration: a file or a directory (required)")
	out := fs.String("o", "", "write the map to this file instead of standard output")
	format := fs.String("format", "svg", "svg, or dot (Graphviz)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: resilint map -mesh DIR [-o FILE] [-format svg|dot] [packages]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *mesh == "" {
		fmt.Fprintln(stderr, "resilint map: -mesh DIR is required (the mesh's configuration)")
		return 2
	}
	if *format != "svg" && *format != "dot" {
		fmt.Fprintf(stderr, "resilint map: -format %q: want svg or dot\n", *format)
		return 2
	}
	code := 0
	m, err := loadMesh(*mesh)
	if err != nil {
		for _, line := range splitErrors(err) {
			fmt.Fprintf(stderr, "resilint map: -mesh: %s\n", line)
		}
		code = 1
		if len(m.set.Files) == 0 {
			return 1
		}
	}
	var sites []*retrysites.Site
	if fs.NArg() > 0 {
		sites, err = retrysites.Load("", fs.Args())
		if err != nil {
			fmt.Fprintf(stderr, "resilint map: %v\n", err)
			return 1
		}
	}
	g := buildMap(m.routes, sites)
	var b bytes.Buffer
	if *format == "dot" {
		err = g.DOT(&b)
	} else {
		err = g.SVG(&b)
	}
	if err == nil {
		if *out != "" {
			err = os.WriteFile(*out, b.Bytes(), 0o644)
		} else {
			_, err = stdout.Write(b.Bytes())
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "resilint map: %v\n", err)
		return 1
	}
	return code
}

// buildMap joins the code's retry sites (top-level and nested) with the
// mesh's routes.
func buildMap(hrs []check.HostRoute, sites []*retrysites.Site) *graph.Graph {
	toRoute := func(h check.HostRoute) graph.Route {
		label := h.Kind + " " + h.Name
		if h.Default {
			label = "Istio default: no VirtualService"
		}
		return graph.Route{Host: h.Host, Tries: h.Tries, Default: h.Default, Label: label, Where: h.Where}
	}
	var grs []graph.Route
	byHost := map[string]check.HostRoute{}
	for _, h := range hrs {
		if _, ok := byHost[h.Host]; !ok {
			byHost[h.Host] = h
			grs = append(grs, toRoute(h))
		}
	}
	table := check.Table(hrs)
	lookup := func(host string) (graph.Route, bool) {
		r, ok := table.Lookup(host)
		if !ok {
			return graph.Route{}, false
		}
		return toRoute(byHost[r.Host]), true
	}
	var gs []graph.Site
	var walk func(s *retrysites.Site, depth int)
	walk = func(s *retrysites.Site, depth int) {
		if s == nil || depth > 16 {
			return
		}
		id := fmt.Sprintf("%s:%d", s.File, s.Line)
		calls := s.Calls
		if calls == 0 {
			calls = s.Attempts
		}
		gs = append(gs, graph.Site{ID: id, What: s.What, Where: s.Pos, Module: s.Package, Calls: calls, Hosts: s.Hosts})
		for _, in := range s.Inner {
			walk(in.Site, depth+1)
		}
	}
	for _, s := range sites {
		walk(s, 0)
	}
	return graph.Build(grs, gs, lookup)
}
