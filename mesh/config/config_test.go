package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadValid(t *testing.T) {
	var s Set
	for _, f := range []string{"istio.yaml", "list.json", "envoy.yaml", "bootstrap.yaml"} {
		if err := s.ReadFile(filepath.Join("testdata", f)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if len(s.VirtualServices) != 2 || len(s.DestinationRules) != 1 || len(s.Routes) != 2 || len(s.Clusters) != 2 || len(s.Services) != 1 {
		t.Fatalf("read %d VirtualServices, %d DestinationRules, %d routes, %d clusters, %d services; want 2, 1, 2, 2, 1",
			len(s.VirtualServices), len(s.DestinationRules), len(s.Routes), len(s.Clusters), len(s.Services))
	}
	if s.Skipped != 1 {
		t.Errorf("skipped %d documents, want 1 (the Deployment)", s.Skipped)
	}
	vs := s.VirtualServices[0]
	if vs.Name != "reviews" || vs.Namespace != "shop" || vs.APIVersion != "networking.istio.io/v1" {
		t.Errorf("VirtualService %+v", vs.Object)
	}
	r := vs.Spec.GetHttp()[0].GetRetries()
	if r.GetAttempts() != 3 || r.GetPerTryTimeout().AsDuration().String() != "500ms" || r.GetRetryOn() != "5xx,reset" {
		t.Errorf("retries = %v", r)
	}
	if got := vs.Fields.Pos("http", 0, "retries", "attempts").String(); got != "testdata/istio.yaml:19:7" {
		t.Errorf("attempts at %s, want testdata/istio.yaml:19:7", got)
	}
	// A field not written is reported at the nearest block that is.
	if got := vs.Fields.Pos("http", 0, "retries", "backoff").String(); got != "testdata/istio.yaml:18:5" {
		t.Errorf("missing backoff at %s, want testdata/istio.yaml:18:5 (retries)", got)
	}
	dr := s.DestinationRules[0]
	if dr.Spec.GetTrafficPolicy().GetOutlierDetection().GetInterval().AsDuration().String() != "1m0s" {
		t.Errorf("interval 1m read as %v", dr.Spec.GetTrafficPolicy().GetOutlierDetection().GetInterval())
	}
	// JSON lines.
	if got := s.VirtualServices[1].Pos.String(); got != "testdata/list.json:5:52" {
		t.Errorf("List item at %s", got)
	}
	// Envoy: the @type is not a field; an Any of a type not linked is left out.
	rc := s.Routes[0]
	if rc.Name != "local_route" || rc.Config.GetVirtualHosts()[0].GetRoutes()[0].GetRoute().GetRetryPolicy().GetNumRetries().GetValue() != 2 {
		t.Errorf("route configuration %v", rc.Config)
	}
	if got := rc.Fields.Pos("virtual_hosts", 0, "routes", 0, "route", "retry_policy", "num_retries").String(); got != "testdata/envoy.yaml:16:9" {
		t.Errorf("num_retries at %s", got)
	}
	if s.Clusters[0].Config.GetCircuitBreakers().GetThresholds()[0].GetMaxRetries().GetValue() != 4294967295 {
		t.Errorf("cluster %v", s.Clusters[0].Config)
	}
	// Bootstrap: the route configuration inlined in a listener.
	if s.Routes[1].Name != "ingress_routes" || s.Clusters[1].Name != "orders" {
		t.Errorf("bootstrap read %q, %q", s.Routes[1].Name, s.Clusters[1].Name)
	}
}

func TestLoadErrors(t *testing.T) {
	want := map[string]string{
		"syntax.yaml":  "testdata/bad/syntax.yaml:6: invalid YAML: did not find expected ',' or ']'",
		"kind.yaml":    `testdata/bad/kind.yaml:2:7: unknown kind "VirtualServic" in networking.istio.io`,
		"field.yaml":   `testdata/bad/field.yaml:8:7: unknown field "atempts" in istio.networking.v1alpha3.HTTPRetry`,
		"type.yaml":    `testdata/bad/type.yaml:1:1: unknown Envoy @type "type.googleapis.com/envoy.config.route.v3.RouteConfigurations"`,
		"value.yaml":   `testdata/bad/value.yaml:8:27: traffic_policy.outlier_detection.max_ejection_percent: expected a number, got "lots"`,
		"version.yaml": `testdata/bad/version.yaml:1:1: VirtualService: unsupported version "v2" of networking.istio.io`,
		"nokind.yaml":  `testdata/bad/nokind.yaml:1:1: neither a Kubernetes object (no kind) nor an Envoy resource`,
	}
	for name, w := range want {
		var s Set
		err := s.ReadFile(filepath.Join("testdata", "bad", name))
		if err == nil || !strings.HasPrefix(err.Error(), w) {
			t.Errorf("%s: error %v, want one starting %q", name, err, w)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Pos.Line == 0 {
			t.Errorf("%s: error %v has no *Error with a line", name, err)
		}
		if len(s.VirtualServices)+len(s.DestinationRules)+len(s.Routes) != 0 {
			t.Errorf("%s: an invalid document was kept", name)
		}
	}
	// A directory: every error, and the valid documents all the same.
	s, err := Load("testdata")
	if err == nil || strings.Count(err.Error(), "\n")+1 != len(want) {
		t.Errorf("Load(testdata): %d errors, want %d:\n%v", strings.Count(err.Error(), "\n")+1, len(want), err)
	}
	if len(s.VirtualServices) != 2 {
		t.Errorf("Load(testdata) kept %d VirtualServices, want 2", len(s.VirtualServices))
	}
}

// Nothing panics on input that is not what it should be.
func TestParseOddInput(t *testing.T) {
	inputs := []string{
		"", "---\n---\n", "null", "[1, 2]", "42", `"@type": 3`, "kind: List\nitems: 3",
		"apiVersion: networking.istio.io/v1\nkind: VirtualService\nspec: [a]",
		"apiVersion: networking.istio.io/v1\nkind: VirtualService\nspec:\n  http: {a: b}",
		"apiVersion: networking.istio.io/v1\nkind: VirtualService\nspec:\n  http:\n  - retries: &a {attempts: 2}\n    route: *a",
		"a: &x [*x]",
		"static_resources: 3",
		"\"@type\": type.googleapis.com/envoy.config.listener.v3.Listener\nfilter_chains: 1",
		"\"@type\": type.googleapis.com/envoy.service.discovery.v3.DiscoveryResponse\nresources: [{a: 1}]",
		"apiVersion: networking.istio.io/v1\nkind: DestinationRule\nspec:\n  trafficPolicy:\n    outlierDetection:\n      interval: [1]",
		"\"@type\": type.googleapis.com/envoy.config.route.v3.RouteConfiguration\nvirtual_hosts: [{name: a, domains: [a], routes: [{match: {prefix: /}, route: {timeout: soon}}]}]",
	}
	for _, in := range inputs {
		var s Set
		_ = s.Parse("in.yaml", []byte(in)) // must not panic
	}
}

// The line of a YAML syntax error is the line of the collection left
// open or of the offending token, 1-based, whichever part of the YAML
// library found it.
func TestYAMLErrorLines(t *testing.T) {
	for in, want := range map[string]string{
		"a: 1\nb: 2\nc: [x\nd: 3\n": "f.yaml:3: invalid YAML: did not find expected ',' or ']'",
		"a: 1\nb: 2\nc: d: e\n":     "f.yaml:3: invalid YAML: mapping values are not allowed in this context",
		"a: 1\n\tb: 2\n":            "f.yaml:2: invalid YAML: found a tab character that violates indentation",
		"a:\n  - b\n - c\n":         "f.yaml:3: invalid YAML: did not find expected key",
	} {
		var s Set
		if err := s.Parse("f.yaml", []byte(in)); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", in, err, want)
		}
	}
}

// Aliases that expand a small document into a huge one are an error.
func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("\"@type\": type.googleapis.com/envoy.config.cluster.v3.Cluster\nname: bomb\nmetadata:\n  filter_metadata:\n    x:\n      l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "      l%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	var s Set
	err := s.Parse("bomb.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Errorf("alias bomb: %v", err)
	}
}
