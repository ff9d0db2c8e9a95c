package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStormSites simulates the retry sites of the bundled examples as
// written.
func TestStormSites(t *testing.T) {
	sites, notes, err := siteClients([]string{"../../examples/..."}, "", 8)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 {
		t.Errorf("notes: %v", notes)
	}
	// The most calls first: retry-go's 10 attempts around the inventory
	// client's 5 (50 calls per request).
	if first := sites[0].client; !strings.HasPrefix(first.Name, "checkout.go:93 ") || len(first.Layers) != 2 ||
		first.Layers[0].Policy.MaxAttempts != 10 || first.Layers[1].Policy.MaxAttempts != 5 {
		t.Errorf("first site %s, layers %+v; want checkout.go:93 with 10 × 5 attempts", first.Name, first.Layers)
	}
	var charge *siteClient
	for i, s := range sites {
		if strings.HasPrefix(s.client.Name, "checkout.go:74 ") {
			charge = &sites[i]
		}
	}
	if charge == nil {
		t.Fatalf("no client for checkout.go:74 among %d sites", len(sites))
	}
	// chargeWithRetry: 3 attempts waiting attempt × 200ms, around a
	// retryablehttp client of 4 attempts (another package: delays assumed).
	l := charge.client.Layers
	if len(l) != 2 || l[0].Policy.MaxAttempts != 3 || !slices.Equal(l[0].Schedule, []time.Duration{200 * time.Millisecond, 400 * time.Millisecond}) || l[1].Policy.MaxAttempts != 4 {
		t.Errorf("checkout.go:74: layers %+v", l)
	}
	if !strings.Contains(strings.Join(charge.client.Notes, "\n"), "assumed runtime/retry's default") {
		t.Errorf("checkout.go:74: the assumption about the inner waits is not stated: %v", charge.client.Notes)
	}
}

func TestStormSite(t *testing.T) {
	code, out, errs := storm(t, "-clients", "200", "-outage", "5m", "-site", "checkout.go:74", "../../examples/...")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// An outage longer than every retry: each request makes 3 × 4 = 12
	// calls, some requests before or after the outage succeed at once.
	if !strings.Contains(out, "checkout.go:74 retry loop") || !strings.Contains(out, "/ 12 / 12") {
		t.Errorf("output:\n%s", out)
	}
	code, _, errs = storm(t, "-site", "checkout.go:1", "../../examples/...")
	if code != 1 || !strings.Contains(errs, "no retry site there") {
		t.Errorf("-site at no retry: exit %d, %q", code, errs)
	}
}

// TestStormExamplesFresh: docs/storm/examples is what the command
// docs/storm.md gives makes of the bundled examples today (the simulation
// is seeded, so its report and plots are the same bytes every run; the
// PNGs are drawn from the same plots).
func TestStormExamplesFresh(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := storm(t, "-clients", "20000", "-o", dir, "../../examples/..."); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, name := range []string{"report.md", "calls.svg", "attempts.svg"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "docs", "storm", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("docs/storm/examples/%s is stale: regenerate it with resilint storm -clients 20000 -o docs/storm/examples ./examples/...", name)
		}
	}
}
