package ratelimit_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/ratelimit"
)

// The accuracy measurement: bursty synthetic traffic concentrated at window
// boundaries, in virtual time, decided by the sliding window counter
// (ratelimit.Limiter through AllowN with explicit times), by an exact
// sliding log, and by a fixed window. The log is the reference: it admits a
// request exactly when fewer than limit requests were admitted in the
// window before it.

const (
	accLimit   = 60
	accWindow  = time.Minute
	accClients = 400
	accWindows = 30
	// accShort is the short span in which a fixed window's boundary burst
	// shows: a tenth of the window.
	accShort = accWindow / 10
)

type request struct {
	at     time.Duration // since the start of the run
	client int
}

// boundaryTraffic generates, for each client, bursts of requests of which
// most fall within 3s of a window boundary; clients' demands range from a
// third of the limit to four times it, per window.
func boundaryTraffic(seed uint64) []request {
	r := rand.New(rand.NewPCG(seed, 7))
	var reqs []request
	for c := range accClients {
		demand := accLimit/3 + r.IntN(4*accLimit) // requests per window
		for w := range accWindows {
			left := demand
			for left > 0 {
				burst := min(left, 5+r.IntN(accLimit/2))
				left -= burst
				var center time.Duration
				if r.IntN(10) < 8 {
					// Around the boundary at the end of window w.
					center = time.Duration(w+1)*accWindow + time.Duration(r.Int64N(int64(6*time.Second))) - 3*time.Second
				} else {
					center = time.Duration(w)*accWindow + time.Duration(r.Int64N(int64(accWindow)))
				}
				for range burst {
					at := center + time.Duration(r.Int64N(int64(time.Second)))
					reqs = append(reqs, request{at: at, client: c})
				}
			}
		}
	}
	slices.SortStableFunc(reqs, func(a, b request) int { return int(a.at - b.at) })
	return reqs
}

type accResult struct {
	admitted int
	// maxInWindow is the largest number of requests of one client admitted
	// within any span of one window.
	maxInWindow int
	// maxInShort is the same within any span of accShort.
	maxInShort int
}

// slidingLog is the exact reference.
func slidingLog(reqs []request) (accResult, []bool) {
	logs := make([][]time.Duration, accClients)
	var res accResult
	admitted := make([]bool, len(reqs))
	for i, q := range reqs {
		l := logs[q.client]
		for len(l) > 0 && l[0] <= q.at-accWindow {
			l = l[1:]
		}
		if len(l) < accLimit {
			l = append(l, q.at)
			admitted[i] = true
			res.admitted++
		}
		logs[q.client] = l
	}
	res.maxInWindow = maxInSpan(reqs, admitted, accWindow)
	res.maxInShort = maxInSpan(reqs, admitted, accShort)
	return res, admitted
}

func fixedWindow(reqs []request) accResult {
	type state struct{ win, n int64 }
	st := make([]state, accClients)
	admitted := make([]bool, len(reqs))
	var res accResult
	for i, q := range reqs {
		w := int64(q.at / accWindow)
		s := &st[q.client]
		if s.win != w {
			s.win, s.n = w, 0
		}
		if s.n < accLimit {
			s.n++
			admitted[i] = true
			res.admitted++
		}
	}
	res.maxInWindow = maxInSpan(reqs, admitted, accWindow)
	res.maxInShort = maxInSpan(reqs, admitted, accShort)
	return res
}

func slidingCounter(t testing.TB, reqs []request) accResult {
	l, err := ratelimit.New(ratelimit.Config{Limit: accLimit, Window: accWindow})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Unix(1_700_000_040, 0) // a window boundary
	keys := make([]string, accClients)
	for c := range keys {
		keys[c] = "client:" + strconv.Itoa(c)
	}
	admitted := make([]bool, len(reqs))
	var res accResult
	ctx := context.Background()
	for i, q := range reqs {
		d, _ := l.AllowN(ctx, keys[q.client], start.Add(q.at), 1)
		if d.Allowed {
			admitted[i] = true
			res.admitted++
		}
	}
	res.maxInWindow = maxInSpan(reqs, admitted, accWindow)
	res.maxInShort = maxInSpan(reqs, admitted, accShort)
	return res
}

// maxInSpan returns the largest number of admitted requests of one client
// within any half-open span (t−span, t].
func maxInSpan(reqs []request, admitted []bool, span time.Duration) int {
	per := make([][]time.Duration, accClients)
	for i, q := range reqs {
		if admitted[i] {
			per[q.client] = append(per[q.client], q.at)
		}
	}
	best := 0
	for _, ts := range per {
		j := 0
		for i := range ts {
			for ts[j] <= ts[i]-span {
				j++
			}
			best = max(best, i-j+1)
		}
	}
	return best
}

// TestAccuracy is the measurement quoted in docs/runtime/ratelimit.md: on
// boundary-concentrated bursts, the sliding window counter admits within
// 2% of what the exact sliding log admits; a fixed window, for contrast,
// admits far more, and up to twice the limit within one window's span.
func TestAccuracy(t *testing.T) {
	if testing.Short() || ratelimit.RaceEnabled {
		t.Skip("a few seconds of simulation (30s under -race, which it does not need: one goroutine)")
	}
	reqs := boundaryTraffic(1)
	exact, _ := slidingLog(reqs)
	counter := slidingCounter(t, reqs)
	fixed := fixedWindow(reqs)
	dev := func(r accResult) float64 {
		return 100 * float64(r.admitted-exact.admitted) / float64(exact.admitted)
	}
	t.Logf("%d requests from %d clients over %d windows, limit %d per %v", len(reqs), accClients, accWindows, accLimit, accWindow)
	for _, r := range []struct {
		name string
		accResult
	}{{"exact sliding log", exact}, {"sliding window counter", counter}, {"fixed window", fixed}} {
		t.Logf("%-22s admitted %7d (%+6.2f%%); most of one client in any %v: %3d, in any %v: %3d",
			r.name, r.admitted, dev(r.accResult), accWindow, r.maxInWindow, accShort, r.maxInShort)
	}
	if d := dev(counter); d > 2 || d < -2 {
		t.Errorf("sliding window counter is %.2f%% off the exact log, want within 2%%", d)
	}
	if exact.maxInWindow > accLimit {
		t.Errorf("the reference admitted %d in one window", exact.maxInWindow)
	}
	if fixed.maxInShort != 2*accLimit {
		t.Errorf("fixed window: at most %d in %v; the boundary burst should reach %d", fixed.maxInShort, accShort, 2*accLimit)
	}
	if counter.maxInShort > accLimit+accLimit/10 {
		t.Errorf("sliding window counter: %d in %v, want at most the limit and a tenth", counter.maxInShort, accShort)
	}
}
