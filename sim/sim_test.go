package sim

import (
	"testing"
	"time"
)

func refClient(t testing.TB, name string, s Shape) *Client {
	t.Helper()
	p, err := Reference(name, s)
	if err != nil {
		t.Fatal(err)
	}
	return &Client{Name: name, Layers: []Layer{{Policy: p}}}
}

func mustRun(t testing.TB, s *Scenario, c *Client) *Result {
	t.Helper()
	r, err := Run(s, c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSmoke(t *testing.T) {
	s := &Scenario{Name: "outage", Seed: 1,
		Workload:   Workload{Clients: 1000, Spread: 10 * time.Second},
		Downstream: Downstream{Outage: Window{Start: 2 * time.Second, Duration: 5 * time.Second}},
	}
	for _, n := range ReferenceNames {
		r := mustRun(t, s, refClient(t, n, Shape{}))
		t.Logf("%s: calls %d retries %d succ %d giveups %d mean %.2f p99 %d max %d share %.2f drain %v", n, r.Calls, r.Retries, r.Successes, r.GiveUps, r.AttemptsMean, r.AttemptsP99, r.AttemptsMax, r.FirstSecondShare(), r.Drain)
	}
}
