package check

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/resilint/resilint/mesh/config"
)

// wantRE finds the expectations of a fixture: `# want "regexp"` on the
// line where a finding must be reported, as analysistest's // want.
var wantRE = regexp.MustCompile(`#\s*want\s+("(?:[^"\\]|\\.)*")`)

type want struct {
	pos config.Position
	re  *regexp.Regexp
	hit bool
}

// TestFixtures runs the checks on each directory of ../testdata (one per
// rule, positives and near misses side by side) and requires a finding
// exactly where a want comment is, matching it, and none elsewhere.
func TestFixtures(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/*")
	if err != nil || len(dirs) < 8 {
		t.Fatalf("fixtures: %v %v", dirs, err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			runFixture(t, dir)
		})
	}
}

func runFixture(t *testing.T, dir string) {
	s, err := config.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var wants []*want
	for _, f := range s.Files {
		for i, line := range strings.Split(string(f.Data), "\n") {
			for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
				pat, err := strconv.Unquote(m[1])
				if err != nil {
					t.Fatalf("%s:%d: bad want %s: %v", f.Name, i+1, m[1], err)
				}
				wants = append(wants, &want{pos: config.Position{File: f.Name, Line: i + 1}, re: regexp.MustCompile(pat)})
			}
		}
	}
	if len(wants) == 0 {
		t.Fatalf("%s has no positive fixture", dir)
	}
	categories := map[string]bool{}
	for _, f := range Run(s) {
		categories[f.Category] = true
		matched := false
		for _, w := range wants {
			if !w.hit && w.pos.File == f.Pos.File && w.pos.Line == f.Pos.Line && w.re.MatchString(f.Message) {
				w.hit, matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%v: unexpected finding [%s]: %s", f.Pos, f.Category, f.Message)
		}
	}
	for _, w := range wants {
		if !w.hit {
			t.Errorf("%v: no finding matching %q", w.pos, w.re)
		}
	}
	if base := filepath.Base(dir); base != "ignore" && !categories[base] {
		t.Errorf("no finding of category %s in %s", filepath.Base(dir), dir)
	}
}

func TestFQDN(t *testing.T) {
	for _, c := range [][3]string{
		{"reviews", "shop", "reviews.shop.svc.cluster.local"},
		{"reviews", "", "reviews.default.svc.cluster.local"},
		{"reviews.shop.svc", "x", "reviews.shop.svc.cluster.local"},
		{"api.example.com:443", "x", "api.example.com"},
		{"*.shop.svc.cluster.local", "x", "*.shop.svc.cluster.local"},
	} {
		if got := FQDN(c[0], c[1]); got != c[2] {
			t.Errorf("FQDN(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestDocCategories(t *testing.T) {
	data, err := os.ReadFile("../../docs/checks/mesh.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{RetryBudget, RetryTimeout, PerTryTimeout, RetryNonIdempotent, PendingUnbounded, EjectionAll, EjectionThreshold} {
		if !strings.Contains(string(data), fmt.Sprintf("\n## %s\n", c)) {
			t.Errorf("docs/checks/mesh.md has no heading ## %s", c)
		}
	}
}

// What the mesh does per host, on the demo's mesh: the worst route of a
// VirtualService, Istio's default for a host with only a
// DestinationRule, an Envoy virtual host by its domains.
func TestRoutes(t *testing.T) {
	s, err := config.Load("../../examples/mesh")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range Routes(s) {
		got[r.Host] = fmt.Sprintf("%d tries, default %v, resends %q, %s %s at %s", r.Tries, r.Default, r.Resends, r.Kind, r.Name, r.Where)
	}
	want := map[string]string{
		"shipping.shop.svc.cluster.local":  `3 tries, default true, resends "retriable-status-codes(503)", DestinationRule shipping at ../../examples/mesh/shipping.yaml:15`,
		"payments.shop.svc.cluster.local":  `4 tries, default false, resends "5xx,reset", VirtualService payments at ../../examples/mesh/payments.yaml:18`,
		"inventory.shop.svc.cluster.local": `4 tries, default false, resends "", VirtualService inventory at ../../examples/mesh/inventory.yaml:14`,
		"checkout.shop.example.com":        `3 tries, default false, resends "5xx", RouteConfiguration edge_routes at ../../examples/mesh/front-proxy.yaml:24`,
	}
	for h, w := range want {
		if got[h] != w {
			t.Errorf("%s: %s\n want %s", h, got[h], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("routes for %d hosts, want %d: %v", len(got), len(want), got)
	}
	tab := Table(Routes(s))
	if r, ok := tab.Lookup("payments"); !ok || r.Tries != 4 {
		t.Errorf("Lookup(payments) = %+v, %v", r, ok)
	}
}
