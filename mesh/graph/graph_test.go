package graph

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

func testGraph() *Graph {
	routes := []Route{
		{Host: "shipping.shop.svc.cluster.local", Tries: 3, Default: true, Label: "Istio default", Where: "mesh/shipping.yaml:15"},
		{Host: "payments.shop.svc.cluster.local", Tries: 4, Label: "VirtualService payments", Where: "mesh/payments.yaml:18"},
	}
	lookup := func(h string) (Route, bool) {
		for _, r := range routes {
			if r.Host == h {
				return r, true
			}
		}
		return Route{}, false
	}
	sites := []Site{
		{ID: "shipping.go:36", What: "retry.Do", Where: "shipping.go:36", Module: "example.com/shop", Calls: 3, Hosts: []string{"shipping.shop.svc.cluster.local"}},
		{ID: "rates.go:10", What: "retry loop", Where: "rates.go:10", Calls: 5, Hosts: []string{"api.example.com"}}, // not in the mesh
	}
	return Build(routes, sites, lookup)
}

func TestBuild(t *testing.T) {
	g := testGraph()
	if g.Node("code:rates.go:10") != nil {
		t.Error("a site calling a host the mesh does not know is drawn")
	}
	var hot []string
	for _, e := range g.Edges {
		if e.Hot() {
			hot = append(hot, e.From+" -> "+e.To+": "+e.Label())
		}
	}
	want := "route:shipping.shop.svc.cluster.local -> service:shipping.shop.svc.cluster.local: 3 attempts (Istio default) = up to 9 calls"
	if len(hot) != 1 || hot[0] != want {
		t.Errorf("hot edges %q, want [%q]", hot, want)
	}
	// Another module's map: the shared route and service are one node,
	// the worst case is kept.
	other := Build(nil, []Site{{ID: "b.go:3", What: "retry loop", Module: "example.com/b", Calls: 4, Hosts: []string{"shipping.shop.svc.cluster.local"}}},
		func(string) (Route, bool) {
			return Route{Host: "shipping.shop.svc.cluster.local", Tries: 3, Default: true, Label: "Istio default"}, true
		})
	g.Merge(other)
	n := 0
	for _, node := range g.Nodes {
		if node.ID == "service:shipping.shop.svc.cluster.local" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d shipping service nodes after Merge, want 1", n)
	}
	for _, e := range g.Edges {
		if e.To == "service:shipping.shop.svc.cluster.local" && e.Calls != 12 {
			t.Errorf("merged edge carries %d calls, want the worst, 12", e.Calls)
		}
	}
}

func TestSVG(t *testing.T) {
	var b strings.Builder
	if err := testGraph().SVG(&b); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	// Well-formed XML.
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, svg)
		}
	}
	for _, want := range []string{"shipping.shop.svc.cluster.local", "payments.shop.svc.cluster.local", "retry.Do (3 attempts)", "3 attempts (Istio default)", "up to 9 calls per request", `class="edge hot"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	var dot strings.Builder
	testGraph().DOT(&dot)
	if !strings.Contains(dot.String(), "color=red") || !strings.HasPrefix(dot.String(), "digraph") {
		t.Errorf("DOT:\n%s", dot.String())
	}
}
