package graph

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Kind is what a node is.
type Kind int

const (
	KindCode    Kind = iota + 1 // a retry site of the code
	KindRoute                   // a mesh route (VirtualService route, Envoy virtual host, Istio's default)
	KindService                 // a destination host
)

func (k Kind) String() string {
	switch k {
	case KindCode:
		return "code"
	case KindRoute:
		return "route"
	case KindService:
		return "service"
	}
	return "unknown"
}

// HotCalls is the worst-case calls per incoming request from which an edge
// is hot: 3 attempts in one layer times 3 in another.
const HotCalls = 9

// Node is a code retry site, a mesh route or a service.
type Node struct {
	ID     string // unique: "code:shipping.go:36", "route:<host>", "service:<host>"
	Kind   Kind
	Label  string // first line: "retry.Do (3 attempts)", the host
	Detail string // second line: where
	Module string // the Go module of a code node; "" for the mesh's
}

// Edge is a call from one node to another.
type Edge struct {
	From, To string
	// Attempts is how many calls one call of From makes to To (the code's
	// attempts, the route's tries); 0 when unknown.
	Attempts int64
	// Calls is the worst-case calls on this edge for one request entering
	// the map at a code site (or at the route, for the mesh's own
	// traffic); 0 when unknown.
	Calls int64
	// Note qualifies the attempts ("Istio default").
	Note string
}

// Hot reports whether the edge carries HotCalls or more per request.
func (e *Edge) Hot() bool { return e.Calls >= HotCalls }

// Label is the edge's text: "3 attempts", "×3 (Istio default) = up to 9 calls".
func (e *Edge) Label() string {
	a := "? attempts"
	if e.Attempts > 0 {
		a = fmt.Sprintf("%d attempts", e.Attempts)
	}
	if e.Note != "" {
		a += " (" + e.Note + ")"
	}
	if e.Calls > 0 && e.Calls != e.Attempts {
		a += fmt.Sprintf(" = up to %d calls", e.Calls)
	}
	return a
}

// labelLines splits Label in two: the attempts, and the worst case.
func (e *Edge) labelLines() (string, string) {
	l := e.Label()
	if i := strings.Index(l, " = "); i >= 0 {
		return l[:i], l[i+3:] + " per request"
	}
	return l, ""
}

// Graph is the map.
type Graph struct {
	Nodes []*Node
	Edges []*Edge
	byID  map[string]*Node
}

// Node returns the node of an ID, or nil.
func (g *Graph) Node(id string) *Node {
	return g.byID[id]
}

// AddNode adds n unless a node of its ID is there; it returns the node
// of that ID.
func (g *Graph) AddNode(n Node) *Node {
	if g.byID == nil {
		g.byID = map[string]*Node{}
	}
	if old := g.byID[n.ID]; old != nil {
		return old
	}
	p := &n
	g.byID[n.ID] = p
	g.Nodes = append(g.Nodes, p)
	return p
}

// AddEdge adds an edge; an edge between the same nodes is one edge, with
// the worst case of both.
func (g *Graph) AddEdge(e Edge) {
	for _, old := range g.Edges {
		if old.From == e.From && old.To == e.To {
			old.Attempts = max(old.Attempts, e.Attempts)
			old.Calls = max(old.Calls, e.Calls)
			if old.Note == "" {
				old.Note = e.Note
			}
			return
		}
	}
	g.Edges = append(g.Edges, &e)
}

// Merge adds the nodes and edges of o (another module's map).
func (g *Graph) Merge(o *Graph) {
	for _, n := range o.Nodes {
		g.AddNode(*n)
	}
	for _, e := range o.Edges {
		g.AddEdge(*e)
	}
}

// sorted returns the nodes of a kind by label and ID.
func (g *Graph) sorted(k Kind) []*Node {
	var out []*Node
	for _, n := range g.Nodes {
		if n.Kind == k {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b *Node) int { return cmp.Or(cmp.Compare(a.Module, b.Module), cmp.Compare(a.ID, b.ID)) })
	return out
}

// Route is what the mesh does to the requests for one host (the input of
// Build).
type Route struct {
	Host    string
	Tries   int    // calls one request becomes: the first and the retries
	Default bool   // Istio's default policy
	Label   string // "VirtualService payments", "Istio default"
	Where   string // "mesh/payments.yaml:12"
}

// Site is a retry site of the code (the input of Build).
type Site struct {
	ID     string // unique, "file.go:line"
	What   string // "retry.Do"
	Where  string // "shipping.go:36"
	Module string // its Go module or package
	Calls  int64  // worst-case calls of one execution; 0 unknown
	Hosts  []string
}

// Build makes the map of the routes and of the code sites whose hosts
// lookup finds in the mesh. Sites calling no host of the mesh are left
// out: where the mesh is not known to be, nothing is said.
func Build(routes []Route, sites []Site, lookup func(host string) (Route, bool)) *Graph {
	g := new(Graph)
	route := func(r Route) (*Node, *Node) {
		rn := g.AddNode(Node{ID: "route:" + r.Host, Kind: KindRoute, Label: r.Label, Detail: r.Where})
		sn := g.AddNode(Node{ID: "service:" + r.Host, Kind: KindService, Label: r.Host})
		note := ""
		if r.Default {
			note = "Istio default"
		}
		g.AddEdge(Edge{From: rn.ID, To: sn.ID, Attempts: int64(r.Tries), Calls: int64(r.Tries), Note: note})
		return rn, sn
	}
	for _, r := range routes {
		route(r)
	}
	for _, s := range sites {
		var code *Node
		for _, h := range s.Hosts {
			r, ok := lookup(h)
			if !ok {
				continue
			}
			if code == nil {
				label := s.What
				if s.Calls > 0 {
					label += fmt.Sprintf(" (%d attempts)", s.Calls)
				}
				code = g.AddNode(Node{ID: "code:" + s.ID, Kind: KindCode, Label: label, Detail: s.Where, Module: s.Module})
			}
			rn, sn := route(r)
			g.AddEdge(Edge{From: code.ID, To: rn.ID, Attempts: s.Calls, Calls: s.Calls})
			calls := int64(0)
			if s.Calls > 0 {
				calls = s.Calls * int64(r.Tries)
			}
			note := ""
			if r.Default {
				note = "Istio default"
			}
			g.AddEdge(Edge{From: rn.ID, To: sn.ID, Attempts: int64(r.Tries), Calls: calls, Note: note})
		}
	}
	return g
}
