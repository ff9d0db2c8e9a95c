package sim

import (
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/retry"
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

func preset(t testing.TB, mode string, clients int, seed uint64) (*Scenario, Shape) {
	t.Helper()
	s, sh, err := Preset(mode, clients, 0, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s, sh
}

func retryPolicy(attempts int) retry.Policy {
	return retry.Policy{MaxAttempts: attempts, BaseDelay: time.Millisecond, MaxDelay: 10 * time.Millisecond}
}
