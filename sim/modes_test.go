package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/retry"
)

func callsIn(r *Result, w Window) int64 {
	var n int64
	for i, b := range r.Series {
		at := time.Duration(i) * r.Resolution
		if at >= w.Start && at < w.End() {
			n += b.Calls
		}
	}
	return n
}

func TestInputErrorsAreNotRetried(t *testing.T) {
	s, shape := preset(t, "input", 2000, 1)
	r := mustRun(t, s, refClient(t, "full", shape))
	if r.Calls != r.Requests || r.Retries != 0 {
		t.Errorf("%d calls, %d retries for %d requests; 400s must not be retried", r.Calls, r.Retries, r.Requests)
	}
	if r.GiveUpInput < 100 || r.GiveUpInput > 300 || r.Successes+r.GiveUpInput != r.Requests {
		t.Errorf("%d input give-ups, %d successes of %d requests; want about 10%% bad input and the rest successes", r.GiveUpInput, r.Successes, r.Requests)
	}
}

func TestTransientErrors(t *testing.T) {
	s, shape := preset(t, "transient", 5000, 1)
	r := mustRun(t, s, refClient(t, "full", shape))
	// 20% of calls fail: 1/(1-0.2) = 1.25 calls per request on average.
	if per := float64(r.Calls) / float64(r.Requests); per < 1.2 || per > 1.3 {
		t.Errorf("%.3f calls per request, want about 1.25", per)
	}
	if r.Successes != r.Requests {
		t.Errorf("%d of %d requests succeeded; with 6 attempts at 20%% errors all should (0.2^6 × 5000 < 1)", r.Successes, r.Requests)
	}
}

func TestSlowSuccessesAndBulkhead(t *testing.T) {
	s, shape := preset(t, "slow", 2000, 1)
	r := mustRun(t, s, refClient(t, "full", shape))
	// 30% of calls outlive the 1s per-attempt timeout and are retried.
	if per := float64(r.Retries) / float64(r.Requests); per < 0.35 || per > 0.5 {
		t.Errorf("%.3f retries per request, want about 0.3/0.7 = 0.43", per)
	}
	c := refClient(t, "full", shape)
	c.Bulkhead = 2
	b := mustRun(t, s, c)
	if b.RejectBulkhead == 0 || b.MaxInFlight > 2 {
		t.Errorf("bulkhead of 2: %d rejections, %d in flight at most", b.RejectBulkhead, b.MaxInFlight)
	}
}

func TestBreakerCutsOutageLoad(t *testing.T) {
	s, shape := preset(t, "outage", 20000, 1)
	plain := mustRun(t, s, refClient(t, "full", shape))
	for _, perAttempt := range []bool{false, true} {
		c := refClient(t, "full", shape)
		c.Breaker, c.BreakerPerAttempt = &breaker.Config{}, perAttempt
		r := mustRun(t, s, c)
		out := s.Downstream.Outage
		if got, was := callsIn(r, out), callsIn(plain, out); got*4 > was || r.RejectBreaker == 0 || r.BreakerOpens == 0 {
			t.Errorf("per attempt %v: %d calls during the outage with a breaker, %d without; %d rejections, %d opens", perAttempt, got, was, r.RejectBreaker, r.BreakerOpens)
		}
	}
}

// TestHalfOpenFalsePositives: only one kind of request fails; the breaker
// opens, and its half-open trials, partly of the healthy kind, close it
// again while the outage goes on.
func TestHalfOpenFalsePositives(t *testing.T) {
	s, shape := preset(t, "partial", 20000, 1)
	c := refClient(t, "full", shape)
	c.Breaker = &breaker.Config{FailureRateThreshold: 20}
	r := mustRun(t, s, c)
	if r.FalseCloses == 0 || r.BreakerOpens < 2 {
		t.Errorf("partial outage: %d false closes, %d opens; want the breaker to flap", r.FalseCloses, r.BreakerOpens)
	}
	s.Downstream.KindShare = 0
	full := mustRun(t, s, c)
	if full.FalseCloses != 0 {
		t.Errorf("full outage: %d false closes, want 0", full.FalseCloses)
	}
}

// TestSharedStoreOutage: while the store that holds the shared breaker is
// down, each instance falls back to a fresh local breaker, which lets
// calls through until it opens too.
func TestSharedStoreOutage(t *testing.T) {
	s, shape := preset(t, "store", 20000, 1)
	c := refClient(t, "full", shape)
	c.Breaker, c.SharedBreaker, c.Instances = &breaker.Config{}, true, 10
	r := mustRun(t, s, c)
	store := s.Downstream.StoreOutage
	s.Downstream.StoreOutage = Window{}
	up := mustRun(t, s, c)
	if got, was := callsIn(r, store), callsIn(up, store); got <= was {
		t.Errorf("%d calls during the store outage, %d with the store up; want more", got, was)
	}
}

func TestBudgetLimitsRetries(t *testing.T) {
	s, shape := preset(t, "outage", 20000, 1)
	plain := mustRun(t, s, refClient(t, "full", shape))
	c := refClient(t, "full", shape)
	c.Layers[0].Budget = &retry.BudgetConfig{}
	r := mustRun(t, s, c)
	if r.RejectBudget == 0 || r.GiveUpBudget == 0 || r.Retries*2 > plain.Retries {
		t.Errorf("budget: %d rejections, %d give-ups, %d retries (%d without)", r.RejectBudget, r.GiveUpBudget, r.Retries, plain.Retries)
	}
}

type everyOther struct{ n int }

func (l *everyOther) Allow(time.Time) bool { l.n++; return l.n%2 == 0 }

func TestLimiterExtensionPoint(t *testing.T) {
	s, shape := preset(t, "transient", 1000, 1)
	c := refClient(t, "full", shape)
	c.NewLimiter = func() Limiter { return &everyOther{} }
	r := mustRun(t, s, c)
	if r.RejectLimiter == 0 || r.Calls >= r.Requests*2 {
		t.Errorf("limiter: %d rejections, %d calls", r.RejectLimiter, r.Calls)
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		s    Scenario
		want string
	}{
		{Scenario{}, "Clients"},
		{Scenario{Workload: Workload{Clients: 1}, Downstream: Downstream{ErrorRate: 2}}, "ErrorRate"},
		{Scenario{Workload: Workload{Clients: 1}, Downstream: Downstream{Latency: -1}}, "negative"},
	} {
		if _, err := Run(&c.s, &Client{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one naming %s", c.s, err, c.want)
		}
	}
	ok := &Scenario{Workload: Workload{Clients: 1}}
	if _, err := Run(ok, &Client{Layers: []Layer{{Policy: retry.Policy{MaxAttempts: -1}}}}); err == nil || !strings.Contains(err.Error(), "MaxAttempts") {
		t.Errorf("bad policy: %v", err)
	}
	if _, err := Run(ok, &Client{Layers: make([]Layer, maxLayers+1)}); err == nil {
		t.Error("too many layers: no error")
	}
	if _, _, err := Preset("nope", 1, 0, 1); err == nil || !strings.Contains(err.Error(), "outage") {
		t.Errorf("unknown mode: %v", err)
	}
	if _, err := Reference("nope", Shape{}); err == nil || !strings.Contains(err.Error(), "decorrelated") {
		t.Errorf("unknown policy: %v", err)
	}
}

func TestSchedule(t *testing.T) {
	s := &Scenario{Name: "down", Seed: 1, Workload: Workload{Clients: 1},
		Downstream: Downstream{Outage: Window{Duration: time.Hour}}}
	c := &Client{Name: "linear", Layers: []Layer{{Policy: retry.Policy{MaxAttempts: 4}, Schedule: []time.Duration{200 * time.Millisecond, 400 * time.Millisecond}}}}
	r := mustRun(t, s, c)
	// Waits 200ms, 400ms, 400ms (the last repeats), plus 1ms per failed call.
	if want := 1000*time.Millisecond + 4*time.Millisecond; r.Completion != want || r.Calls != 4 {
		t.Errorf("completion %v after %d calls, want %v after 4", r.Completion, r.Calls, want)
	}
}

// TestBudgetFloorOnVirtualTime: with no saved tokens, the budget's floor
// allows MinRetriesPerSecond retries per second of virtual time, which only
// holds if the budget reads the simulator's clock (TryWithdrawAt).
func TestBudgetFloorOnVirtualTime(t *testing.T) {
	s := &Scenario{Name: "down", Seed: 1, Workload: Workload{Clients: 10_000, Spread: 100 * time.Second},
		Downstream: Downstream{Outage: Window{Duration: time.Hour}}}
	c := refClient(t, "full", Shape{})
	c.Layers[0].Budget = &retry.BudgetConfig{Ratio: 1e-6, MaxTokens: 1, MinRetriesPerSecond: 2}
	r := mustRun(t, s, c)
	// About 2 retries per second over the ~130s in which retries are
	// asked for, plus the burst of 2.
	t.Logf("%d retries", r.Retries)
	if r.Retries < 200 || r.Retries > 300 {
		t.Errorf("%d retries; want about 2 per second of virtual time over ~130s", r.Retries)
	}
}
