package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resilint/resilint/sim"
)

func results(t *testing.T) (*sim.Scenario, []*sim.Result) {
	t.Helper()
	s, shape, err := sim.Preset("restorm", 2000, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	var rs []*sim.Result
	for _, n := range []string{"none", "full"} {
		p, err := sim.Reference(n, shape)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sim.Run(s, &sim.Client{Name: n, Layers: []sim.Layer{{Policy: p}}})
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return s, rs
}

func TestWrite(t *testing.T) {
	s, rs := results(t)
	dir := t.TempDir()
	if err := Write(dir, s, rs, Clients{"none": "exponential without jitter"}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"calls.svg", "attempts.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("none")) || !bytes.Contains(b, []byte("full")) {
			t.Errorf("%s: not an SVG with a line per client", f)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	for _, want := range []string{"| none |", "| full |", "fell over again", "yes, 3×", "![downstream calls per second](calls.svg)", "exponential without jitter"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	h, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if n := strings.Count(string(h), "<svg"); n != 2 || strings.Contains(string(h), "<?xml") {
		t.Errorf("report.html: %d inline SVGs (want 2), or an XML prolog left inside", n)
	}
}

func TestTable(t *testing.T) {
	s, rs := results(t)
	var b bytes.Buffer
	if err := Table(&b, s, rs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "scenario restorm") || !strings.Contains(b.String(), "attempts mean/p99/max") {
		t.Errorf("table:\n%s", b.String())
	}
}

func TestPeakPerSecond(t *testing.T) {
	r := &sim.Result{Resolution: 10 * time.Second, PeakCalls: 50}
	r2 := &sim.Result{Resolution: 100 * time.Millisecond, PeakCalls: 50}
	for _, c := range []struct {
		r    *sim.Result
		want string
	}{{r, "5"}, {r2, "500"}} {
		for _, col := range columns {
			if col.head == "peak calls/s" {
				if got := col.val(c.r); got != c.want {
					t.Errorf("resolution %v, peak %d: %s calls/s, want %s", c.r.Resolution, c.r.PeakCalls, got, c.want)
				}
			}
		}
	}
}
