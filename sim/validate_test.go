package sim

import (
	"math"
	"testing"
	"time"
)

// TestAWSBackoffSimulation reproduces the setup of AWS's backoff simulation
// (100 clients contending for one resource, exponential backoff without
// jitter against equal, full and decorrelated jitter) and checks its
// ordering, summed over five seeds: no jitter is far worse than any jitter
// in calls and in completion time; full and decorrelated jitter make fewer
// calls than equal jitter.
func TestAWSBackoffSimulation(t *testing.T) {
	calls := map[string]int64{}
	done := map[string]time.Duration{}
	for seed := uint64(1); seed <= 5; seed++ {
		s, shape := preset(t, "contention", 100, seed)
		for _, n := range []string{"none", "equal", "full", "decorrelated"} {
			r := mustRun(t, s, refClient(t, n, shape))
			if r.Successes != 100 {
				t.Fatalf("%s, seed %d: %d of 100 clients succeeded", n, seed, r.Successes)
			}
			calls[n] += r.Calls
			done[n] += r.Completion
		}
	}
	t.Logf("calls %v, completion %v", calls, done)
	for _, n := range []string{"equal", "full", "decorrelated"} {
		if calls["none"] < 3*calls[n] || done["none"] < 10*done[n] {
			t.Errorf("no jitter (%d calls, %v) is not far worse than %s jitter (%d calls, %v)", calls["none"], done["none"], n, calls[n], done[n])
		}
	}
	// Without jitter the 100 clients stay in lockstep: each round exactly
	// one wins, so they make 100+99+...+1 calls.
	if calls["none"] != 5*5050 {
		t.Errorf("no jitter: %d calls over 5 seeds, want %d (lockstep)", calls["none"], 5*5050)
	}
	// The numbers docs/storm.md quotes.
	wantCalls := map[string]int64{"equal": 3057, "full": 3020, "decorrelated": 2493}
	wantDone := map[string]time.Duration{"none": 75 * time.Minute, "equal": 5700 * time.Millisecond, "full": 5300 * time.Millisecond, "decorrelated": 3000 * time.Millisecond}
	for n, w := range wantCalls {
		if calls[n] != w {
			t.Errorf("%s jitter: %d calls over 5 seeds, docs/storm.md says %d", n, calls[n], w)
		}
	}
	for n, w := range wantDone {
		if d := done[n] - w; d < -w/20 || d > w/20 {
			t.Errorf("%s: completion %v over 5 seeds, docs/storm.md says about %v", n, done[n], w)
		}
	}
	for _, n := range []string{"full", "decorrelated"} {
		if calls[n] >= calls["equal"] {
			t.Errorf("%s jitter made %d calls, not fewer than equal jitter's %d", n, calls[n], calls["equal"])
		}
	}
}

// TestReStorm: clients on plain exponential backoff (1s, 2s, 4s, 8s, 16s)
// meet a full outage; the dependency comes back with a capacity of a fifth
// of them per second and falls over when its queue overflows. Without
// jitter every wave of retries arrives at once and brings it down again:
// three times, at the three waves after the recovery. Full and
// decorrelated jitter spread the waves and it stays up; equal jitter's
// narrower waves bring it down once.
func TestReStorm(t *testing.T) {
	clients := 500_000
	if testing.Short() {
		clients = 50_000
	}
	s, shape := preset(t, "restorm", clients, 1)
	none := mustRun(t, s, refClient(t, "none", shape))
	if got := none.ReCrashes(); got != 3 {
		t.Errorf("no jitter: %d re-crashes (%v), want 3", got, none.Crashes)
	}
	for i, c := range none.Crashes {
		// The waves come 1+2+4 = 7s, 15s and 31s after the first call.
		want := []time.Duration{7 * time.Second, 15 * time.Second, 31 * time.Second}[min(i, 2)]
		if c < want || c >= want+2*time.Second {
			t.Errorf("no jitter: crash %d at %v, want within [%v, %v)", i+1, c, want, want+2*time.Second)
		}
	}
	if !testing.Short() && none.Successes != 25037 {
		t.Errorf("no jitter: %d successes, docs/storm.md says 25037", none.Successes)
	}
	// Of the clients waiting at the recovery, equal jitter's retry in its
	// first second far more often than full jitter's: 46% against 29%.
	eq := mustRun(t, s, refClient(t, "equal", shape))
	full := mustRun(t, s, refClient(t, "full", shape))
	if e, f := math.Round(100*eq.PendingShare()), math.Round(100*full.PendingShare()); e != 46 || f != 29 {
		t.Errorf("waiting at recovery, retried in the first second: equal %v%%, full %v%%; docs/storm.md says 46%% and 29%%", e, f)
	}
	if got := eq.ReCrashes(); got != 1 {
		t.Errorf("equal jitter: %d re-crashes (%v), docs/storm.md says 1", got, eq.Crashes)
	}
	for _, n := range []string{"full", "decorrelated"} {
		r := full
		if n != "full" {
			r = mustRun(t, s, refClient(t, n, shape))
		}
		if got := r.ReCrashes(); got != 0 {
			t.Errorf("%s jitter: %d re-crashes (%v), want 0", n, got, r.Crashes)
		}
		if r.Successes <= 10*none.Successes {
			t.Errorf("%s jitter: %d successes, not ten times no jitter's %d", n, r.Successes, none.Successes)
		}
	}
}

// TestFirstSecondShare: a cohort of clients fails together and the
// dependency comes back 2s later, during their second wave of retries.
// Equal jitter keeps half of each delay fixed, so its wave is narrow and a
// much larger share of its retries lands in the first second after the
// recovery than full jitter's.
func TestFirstSecondShare(t *testing.T) {
	s := &Scenario{Name: "cohort", Seed: 1,
		Workload:   Workload{Clients: 20_000},
		Downstream: Downstream{Outage: Window{Duration: 2 * time.Second}},
	}
	eq := mustRun(t, s, refClient(t, "equal", Shape{}))
	full := mustRun(t, s, refClient(t, "full", Shape{}))
	t.Logf("equal %.3f, full %.3f", eq.FirstSecondShare(), full.FirstSecondShare())
	if !near(eq.FirstSecondShare(), 0.756) || !near(full.FirstSecondShare(), 0.459) {
		t.Errorf("shares %.4f and %.4f; docs/storm.md says 75.6%% and 45.9%%", eq.FirstSecondShare(), full.FirstSecondShare())
	}
	if eq.FirstSecondShare() < 1.5*full.FirstSecondShare() {
		t.Errorf("equal jitter's first-second share %.3f is not well above full jitter's %.3f", eq.FirstSecondShare(), full.FirstSecondShare())
	}
}

// TestNestedLayers: three retry layers of 3, 3 and 5 attempts against a
// dependency that is down make 3 × 3 × 5 = 45 calls per logical request.
func TestNestedLayers(t *testing.T) {
	layer := func(n int) Layer {
		return Layer{Policy: retryPolicy(n)}
	}
	c := &Client{Name: "3x3x5", Layers: []Layer{layer(3), layer(3), layer(5)}}
	s := &Scenario{Name: "down", Seed: 1,
		Workload:   Workload{Clients: 100, Spread: time.Second},
		Downstream: Downstream{Outage: Window{Duration: time.Hour}},
	}
	r := mustRun(t, s, c)
	if r.Calls != 4500 || r.AttemptsMax != 45 || r.AttemptsP99 != 45 || r.AttemptsMean != 45 {
		t.Errorf("calls %d, attempts mean %v p99 %d max %d; want 4500 calls, 45 per request", r.Calls, r.AttemptsMean, r.AttemptsP99, r.AttemptsMax)
	}
	if r.GiveUpAttempts != 100 {
		t.Errorf("%d give-ups with attempts spent, want 100", r.GiveUpAttempts)
	}
}

// TestFirstSecondShareSweep moves the recovery over the cohort's retry
// waves, from 2s to 24s in steps of 0.5s. The worst case (the recovery
// meets a wave) is worse with equal jitter than with full jitter, but on
// average over the recovery times equal jitter's share is the lower one:
// the claim holds for a recovery that meets a wave, not for every one.
func TestFirstSecondShareSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("45 runs per policy")
	}
	stats := func(name string) (worst, mean float64) {
		var sum float64
		var n int
		for T := 2 * time.Second; T <= 24*time.Second; T += 500 * time.Millisecond {
			s := &Scenario{Name: "cohort", Seed: 1,
				Workload:   Workload{Clients: 5000, Spread: time.Second},
				Downstream: Downstream{Outage: Window{Duration: T}},
			}
			sh := mustRun(t, s, refClient(t, name, Shape{})).FirstSecondShare()
			worst = max(worst, sh)
			sum += sh
			n++
		}
		return worst, sum / float64(n)
	}
	ew, em := stats("equal")
	fw, fm := stats("full")
	t.Logf("equal: worst %.3f, mean %.3f; full: worst %.3f, mean %.3f", ew, em, fw, fm)
	if !near(ew, 0.674) || !near(em, 0.165) || !near(fw, 0.554) || !near(fm, 0.216) {
		t.Errorf("docs/storm.md quotes 67.4%%, 16.5%%, 55.4%%, 21.6%%")
	}
	if ew <= fw || em >= fm {
		t.Errorf("equal: worst %.3f, mean %.3f; full: worst %.3f, mean %.3f; want equal's worst above full's and its mean below", ew, em, fw, fm)
	}
}

// near reports whether x rounds to want at three decimals.
func near(x, want float64) bool { return x >= want-0.0005 && x < want+0.0005 }

// TestPendingAtRecovery: 100 clients fail together at the start of an
// outage and retry in lockstep after 1s, then 2s more (no jitter): their
// second retry, at 3s, is pending when the dependency comes back at 2.5s
// and falls in its first second; at 2s it does not.
func TestPendingAtRecovery(t *testing.T) {
	for _, c := range []struct {
		outage       time.Duration
		first, total int64
	}{{2500 * time.Millisecond, 100, 100}, {2 * time.Second, 0, 100}} {
		s := &Scenario{Name: "cohort", Seed: 1, Workload: Workload{Clients: 100},
			Downstream: Downstream{Outage: Window{Duration: c.outage}}}
		r := mustRun(t, s, refClient(t, "none", Shape{}))
		if r.PendingAtRecovery != c.total || r.PendingFirstSecond != c.first {
			t.Errorf("outage %v: %d of %d waiting clients retried in the first second; want %d of %d", c.outage, r.PendingFirstSecond, r.PendingAtRecovery, c.first, c.total)
		}
	}
}
