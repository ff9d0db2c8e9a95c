package routes

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// ClusterDomain is the DNS suffix of Kubernetes services.
const ClusterDomain = "svc.cluster.local"

// A Route is what the mesh does to the requests for one host.
type Route struct {
	// Host is the destination's fully qualified name
	// (payments.shop.svc.cluster.local, api.example.com).
	Host string `json:"host"`
	// Tries is the calls one request may become: the first and the
	// mesh's retries.
	Tries int `json:"tries"`
	// Policy words the retries: "2 retries on
	// connect-failure,...,retriable-status-codes(503)".
	Policy string `json:"policy"`
	// Default: no retries are configured for the host and Istio's default
	// policy applies.
	Default bool `json:"default,omitempty"`
	// Resends lists the retry conditions under which a request that
	// reached the upstream may be sent again (5xx, reset, 503...), when
	// the route also serves POST or PATCH without an idempotency key.
	Resends string `json:"resends,omitempty"`
	// Where is the configuration that says so ("mesh/payments.yaml:12"),
	// or the resource that puts the host in the mesh when the default
	// applies.
	Where string `json:"where"`
}

// Table is the routes of the mesh by host. Its zero value is an empty
// table. As a flag.Value its text is JSON: a list of Routes.
type Table struct {
	routes []Route // sorted by host
}

// NewTable makes a table of routes; of two routes for one host, the one
// with more tries is kept.
func NewTable(rs []Route) *Table {
	t := new(Table)
	t.set(rs)
	return t
}

func (t *Table) set(rs []Route) {
	byHost := map[string]Route{}
	for _, r := range rs {
		r.Host = strings.ToLower(r.Host)
		if old, ok := byHost[r.Host]; !ok || r.Tries > old.Tries || r.Tries == old.Tries && old.Resends == "" && r.Resends != "" {
			byHost[r.Host] = r
		}
	}
	t.routes = t.routes[:0]
	for _, r := range byHost {
		t.routes = append(t.routes, r)
	}
	slices.SortFunc(t.routes, func(a, b Route) int { return strings.Compare(a.Host, b.Host) })
}

// Len is the number of hosts in the table.
func (t *Table) Len() int { return len(t.routes) }

// Routes returns the routes, by host.
func (t *Table) Routes() []Route { return slices.Clone(t.routes) }

// String is the table as JSON ("" when it is empty).
func (t *Table) String() string {
	if t == nil || len(t.routes) == 0 {
		return ""
	}
	b, _ := json.Marshal(t.routes)
	return string(b)
}

// Set reads a table from its JSON ("" empties it).
func (t *Table) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		t.routes = nil
		return nil
	}
	var rs []Route
	if err := json.Unmarshal([]byte(s), &rs); err != nil {
		return fmt.Errorf("mesh routes: %v", err)
	}
	for _, r := range rs {
		if r.Host == "" || r.Tries < 1 {
			return fmt.Errorf("mesh routes: a route needs a host and at least 1 try: %+v", r)
		}
	}
	t.set(rs)
	return nil
}

// Lookup finds the route of a host written in a Go program (a URL's
// host): the host itself, or for names of one or two labels the
// Kubernetes names DNS search paths complete them to ("payments.shop" is
// payments.shop.svc.cluster.local). A one-label name ("payments") is the
// service of that name in the caller's namespace, which the program does
// not say: it is found only when one host of the table has that name.
// An IP address, or a host the mesh does not know, is not found.
func (t *Table) Lookup(host string) (Route, bool) {
	if t == nil || host == "" {
		return Route{}, false
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	var exact []string
	switch n := strings.Count(host, "."); {
	case n == 0:
		var found []Route
		for _, r := range t.routes {
			if first, _, _ := strings.Cut(r.Host, "."); first == host && strings.HasSuffix(r.Host, "."+ClusterDomain) {
				found = append(found, r)
			}
		}
		if len(found) == 1 {
			return found[0], true
		}
		return Route{}, false
	case n == 1:
		exact = []string{host, host + "." + ClusterDomain}
	case strings.HasSuffix(host, ".svc"):
		exact = []string{host + ".cluster.local"}
	default:
		exact = []string{host}
	}
	for _, h := range exact {
		i, ok := slices.BinarySearchFunc(t.routes, h, func(r Route, h string) int { return strings.Compare(r.Host, h) })
		if ok {
			return t.routes[i], true
		}
	}
	return Route{}, false
}
