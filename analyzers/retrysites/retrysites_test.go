package retrysites

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestLoad(t *testing.T) {
	sites, err := Load("", []string{"./testdata/sites"})
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[int]*Site{}
	for _, s := range sites {
		byLine[s.Line] = s
		t.Logf("%s %s attempts %d calls %d delays %v jitter %q exp %v capped %v inner %d", s.Pos, s.What, s.Attempts, s.Calls, s.Delays, s.Jitter, s.Exponential, s.Capped, len(s.Inner))
		for _, in := range s.Inner {
			t.Logf("  inner %+v", in)
		}
	}
	ms := time.Millisecond
	check := func(line int, attempts int64, delays []time.Duration, jitter string) {
		t.Helper()
		s := byLine[line]
		if s == nil {
			t.Errorf("no site at line %d", line)
			return
		}
		if s.Attempts != attempts || !slices.Equal(s.Delays, delays) || s.Jitter != jitter {
			t.Errorf("line %d: attempts %d, delays %v, jitter %q; want %d, %v, %q", line, s.Attempts, s.Delays, s.Jitter, attempts, delays, jitter)
		}
	}
	check(17, 3, []time.Duration{200 * ms, 400 * ms}, "none")
	check(29, 6, []time.Duration{100 * ms, 200 * ms, 400 * ms, 800 * ms, 1000 * ms}, "none")
	check(41, 4, nil, "full")
	check(53, 3, []time.Duration{time.Second}, "none")
	if o := byLine[53]; o != nil {
		if len(o.Inner) != 1 || o.Inner[0].Calls != 6 || o.Calls != 18 || o.Inner[0].Site != byLine[29] {
			t.Errorf("outer: calls %d, inner %s; want 18 calls, one inner of 6, linked to the site at line 29", o.Calls, fmt.Sprint(o.Inner))
		}
	}
}

func TestLoadError(t *testing.T) {
	if _, err := Load("", []string{"./testdata/nosuchdir"}); err == nil {
		t.Error("no error for a missing package")
	}
}
