package main_test

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The README's main command with the demo's mesh: the mesh's findings at
// their manifest lines, the code's retry counted with the mesh's, and
// every other finding exactly as without -mesh.
func TestMeshDemo(t *testing.T) {
	root := repoRoot(t)
	out, stderr, code := run(t, root, bin, "-mesh", "examples/mesh", "./examples/...")
	if code != 3 {
		t.Fatalf("exit %d, want 3\n%s%s", code, out, stderr)
	}
	for _, want := range []string{
		"examples/shipping/shipping.go:36:9: nested retry across layers: retry.Do makes 3 attempts, each sent to shipping.shop.svc.cluster.local, which the service mesh retries (2 retries on connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes(503), Istio's default: no VirtualService, examples/mesh/shipping.yaml:15): 3 attempts in code × 3 by the mesh (Istio default) = up to 9 calls per request",
		"examples/mesh/shipping.yaml:21:3: no VirtualService routes shipping.shop.svc.cluster.local: Istio's default, 2 retries on connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes(503), applies",
		"examples/mesh/inventory.yaml:13:5: route timeout 1s is shorter than perTryTimeout 500ms × 4 tries",
		"examples/mesh/payments.yaml:18:5: route retries 3 times without perTryTimeout",
		"examples/mesh/payments.yaml:20:7: retryOn 5xx,reset resends POST requests",
		"examples/mesh/shipping.yaml:22:5: connection pool of shipping leaves the requests waiting for a connection unbounded",
		"examples/mesh/shipping.yaml:29:7: outlier detection of shipping may eject every endpoint",
		"examples/mesh/front-proxy.yaml:24:19: retry_on 5xx resends POST/PATCH requests",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-mesh examples/mesh: no %q in\n%s", want, stderr)
		}
	}

	// JSON: the same findings without -mesh, less the mesh's.
	with := demoJSON(t, root, "-mesh", "examples/mesh")
	without := demoJSON(t, root)
	var kept []string
	meshChecks := 0
	for _, f := range with {
		switch {
		case f.Check == "mesh":
			meshChecks++
			if !strings.Contains(f.Posn, filepath.Join("examples", "mesh")) || !strings.HasSuffix(f.URL, "mesh.md#"+f.Category) {
				t.Errorf("mesh finding at %s, url %s", f.Posn, f.URL)
			}
		case f.Category == "mesh":
		default:
			kept = append(kept, f.Posn+" "+f.Message)
		}
	}
	var base []string
	for _, f := range without {
		if f.Check == "mesh" || f.Category == "mesh" || strings.Contains(f.Posn, "shipping") {
			t.Errorf("without -mesh: %s %s", f.Posn, f.Message)
		}
		base = append(base, f.Posn+" "+f.Message)
	}
	if !slices.Equal(kept, base) {
		t.Errorf("the code's findings differ with -mesh:\nwith:    %q\nwithout: %q", kept, base)
	}
	if meshChecks < 7 {
		t.Errorf("%d mesh findings on the demo, want at least 7", meshChecks)
	}

	// SARIF: the mesh's rules and the manifests as artifacts.
	sarif, stderr, code := run(t, root, bin, "-sarif", "-mesh", "examples/mesh", "./examples/...")
	if code != 0 {
		t.Fatalf("-sarif -mesh: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{`"ruleId": "mesh/ejection-all"`, `"uri": "examples/mesh/shipping.yaml"`, `"ruleId": "retrynesting/mesh"`} {
		if !strings.Contains(sarif, want) {
			t.Errorf("SARIF lacks %s", want)
		}
	}
}

func demoJSON(t *testing.T, root string, args ...string) []jsonFinding {
	t.Helper()
	out, stderr, code := run(t, root, bin, append(append([]string{"-json"}, args...), "./examples/...")...)
	if code != 0 {
		t.Fatalf("-json %v: exit %d\n%s", args, code, stderr)
	}
	var fs []jsonFinding
	if err := json.Unmarshal([]byte(out), &fs); err != nil {
		t.Fatal(err)
	}
	return fs
}

// Invalid manifests are errors with file and line, status 1; the valid
// ones are checked all the same.
func TestMeshErrors(t *testing.T) {
	root := repoRoot(t)
	_, stderr, code := run(t, root, bin, "-mesh", "mesh/config/testdata", "./examples/shipping")
	if code != 1 {
		t.Errorf("-mesh with invalid manifests: exit %d, want 1\n%s", code, stderr)
	}
	for _, want := range []string{
		"resilint: -mesh: mesh/config/testdata/bad/syntax.yaml:6: invalid YAML: ",
		`resilint: -mesh: mesh/config/testdata/bad/kind.yaml:2:7: unknown kind "VirtualServic" in networking.istio.io`,
		`resilint: -mesh: mesh/config/testdata/bad/field.yaml:8:7: unknown field "atempts"`,
		"mesh/config/testdata/istio.yaml:", // a valid document's finding
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no %q in\n%s", want, stderr)
		}
	}
	_, stderr, code = run(t, root, bin, "-mesh", "no/such/dir", "./examples/shipping")
	if code != 1 || !strings.Contains(stderr, "no/such/dir") {
		t.Errorf("-mesh no/such/dir: exit %d\n%s", code, stderr)
	}
}

// The map of the demo: an SVG with the services, the code's retry and the
// hot edge.
func TestMap(t *testing.T) {
	root := repoRoot(t)
	file := filepath.Join(t.TempDir(), "map.svg")
	_, stderr, code := run(t, root, bin, "map", "-mesh", "examples/mesh", "-o", file, "./examples/...")
	if code != 0 {
		t.Fatalf("map: exit %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(data)
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("map: not well-formed XML: %v", err)
		}
	}
	for _, want := range []string{"<svg", "shipping.shop.svc.cluster.local", "payments.shop.svc.cluster.local", "inventory.shop.svc.cluster.local", "checkout.shop.example.com", "retry.Do (3 attempts)", "3 attempts (Istio default)", "up to 9 calls per request", `class="edge hot"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("map lacks %q", want)
		}
	}
	if _, _, code := run(t, root, bin, "map", "./examples/..."); code != 2 {
		t.Errorf("map without -mesh: exit %d, want 2", code)
	}
	out, _, code := run(t, root, bin, "help", "mesh")
	if code != 0 || !strings.HasPrefix(out, "mesh: report service-mesh retry") {
		t.Errorf("help mesh: exit %d\n%s", code, out)
	}
}
