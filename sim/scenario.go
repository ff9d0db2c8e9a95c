package sim

import (
	"fmt"
	"time"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/retry"
)

// Window is a span of virtual time; a zero Duration means none.
type Window struct {
	Start    time.Duration
	Duration time.Duration
}

// End returns Start + Duration.
func (w Window) End() time.Duration { return w.Start + w.Duration }

func (w Window) has(t int64) bool {
	return w.Duration > 0 && t >= int64(w.Start) && t < int64(w.End())
}

// Downstream is the dependency the clients call: its capacity, its latency,
// and the ways it fails. The zero value is a healthy dependency with
// unlimited capacity and a 10ms latency.
type Downstream struct {
	// Capacity is the calls per second it serves, one after the other in
	// arrival order (a FIFO queue); calls that find the queue longer than
	// QueueLimit are shed with 503, or, with FallOver, bring it down.
	// Zero means unlimited: no queue.
	Capacity float64
	// QueueLimit is the longest queue it holds; zero means one second of
	// Capacity.
	QueueLimit int
	// FallOver: a call that finds the queue full brings the dependency down
	// (every queued call fails at once) for RestartTime, after which it
	// comes back with RecoveryCapacity. Without it, the call is shed.
	FallOver    bool
	RestartTime time.Duration
	// Latency is the time a served call takes on top of its wait in the
	// queue; zero means 10ms. FailLatency is the time a failure takes while
	// it is down; zero means 1ms.
	Latency     time.Duration
	FailLatency time.Duration

	// Outage is a full outage: every call fails with 503 (with RetryAfter,
	// if set). After it the dependency comes back with RecoveryCapacity
	// (zero: Capacity).
	Outage           Window
	RecoveryCapacity float64
	// RetryAfter, if set, is sent with every 503 (Retry-After).
	RetryAfter time.Duration

	// ErrorRate is the share of served calls that fail with 503 at any
	// time (transient errors).
	ErrorRate float64
	// InputErrorRate is the share of logical requests that are bad input:
	// every attempt of theirs gets 400, which is never retried.
	InputErrorRate float64
	// SlowRate is the share of successes that take SlowLatency more.
	SlowRate    float64
	SlowLatency time.Duration

	// KindShare, if set, makes the Outage partial: only that share of the
	// logical requests (one kind, say writes) fails during the Outage; the
	// other kind succeeds, and so does every health check and half-open
	// trial of that kind (half-open false positives).
	KindShare float64

	// StoreOutage is an outage of the shared store that holds the state of
	// the clients' shared breaker (Client.SharedBreaker): while it lasts,
	// each instance falls back to a local breaker of its own.
	StoreOutage Window

	// Contention, if set, is the AWS backoff simulation's resource: a call
	// succeeds only if no other call arrived within Contention before it
	// (optimistic concurrency: one writer at a time wins; the others
	// conflict with 409-like retryable failures, sent as 503).
	Contention time.Duration
}

// Workload is who calls the dependency: Clients clients, each making one
// logical request, at times spread evenly (at random) over [Start,
// Start+Spread).
type Workload struct {
	Clients int
	Start   time.Duration
	Spread  time.Duration
}

// Layer is one retry layer of a client: a runtime/retry Policy and, if set,
// a retry budget shared by all the clients of one instance.
type Layer struct {
	Policy retry.Policy
	Budget *retry.BudgetConfig
	// Schedule, if set, is a retry's own waits as written in code: the
	// wait before retry k is Schedule[k], the last one repeating. It
	// replaces Policy.Delay (and so the policy's jitter); the rest of the
	// policy (attempts, classification, Retry-After) still applies. For
	// retry sites read from code, not for runtime/retry policies.
	Schedule []time.Duration
}

// Limiter is the extension point for a client-side rate limiter (the
// simulator does not drive runtime/ratelimit yet): Allow reports whether a
// call may go out at virtual time now. A Client makes one per instance, and one
// shared one when the store is up.
type Limiter interface {
	Allow(now time.Time) bool
}

// Client is how every simulated client calls the dependency, outermost
// layer first: breaker (per logical request, or per attempt), retry layers,
// limiter, bulkhead, call.
type Client struct {
	// Name names the client in reports ("full", "none", "examples/x.go:12").
	Name string
	// Layers are the nested retry layers, outermost first. Empty means one
	// call per logical request.
	Layers []Layer
	// Breaker, if set, is a runtime/breaker configuration; its Clock and
	// Rand are replaced by the simulator's.
	Breaker *breaker.Config
	// BreakerPerAttempt puts the breaker around each attempt (the retry
	// stops when it is open) instead of around the logical request.
	BreakerPerAttempt bool
	// SharedBreaker keeps the breaker's state in a shared store: one
	// breaker for every instance while Downstream.StoreOutage is not on.
	SharedBreaker bool
	// Bulkhead, if positive, is a runtime/bulkhead per instance with that
	// many slots, failing fast when full.
	Bulkhead int
	// NewLimiter, if set, makes a Limiter; nil means none.
	NewLimiter func() Limiter
	// Instances is how many client processes the clients are spread over
	// (each has its own budget, breaker, bulkhead); zero means 1.
	Instances int
	// Notes are the assumptions made to build the client (for clients read
	// from code), printed with the report.
	Notes []string
}

// Scenario is one simulation setup, run once per client.
type Scenario struct {
	Name       string
	Downstream Downstream
	Workload   Workload
	// Horizon is when the run stops at the latest; zero means when the last
	// logical request is over.
	Horizon time.Duration
	// Resolution is the width of the time series' buckets; zero means 1s.
	Resolution time.Duration
	// Seed makes the run: the same seed gives the same result.
	Seed uint64
}

// Validate reports a bad scenario with a clear error.
func (s *Scenario) Validate() error {
	d := s.Downstream
	switch {
	case s.Workload.Clients <= 0:
		return fmt.Errorf("sim: scenario %q: Workload.Clients is %d; want at least 1", s.Name, s.Workload.Clients)
	case s.Workload.Clients > 1<<30:
		return fmt.Errorf("sim: scenario %q: Workload.Clients is %d; want at most %d", s.Name, s.Workload.Clients, 1<<30)
	case s.Workload.Start < 0 || s.Workload.Spread < 0:
		return fmt.Errorf("sim: scenario %q: negative Workload.Start or Spread", s.Name)
	case d.Capacity < 0 || d.RecoveryCapacity < 0 || d.QueueLimit < 0:
		return fmt.Errorf("sim: scenario %q: negative capacity or queue limit", s.Name)
	case d.Latency < 0 || d.FailLatency < 0 || d.SlowLatency < 0 || d.RestartTime < 0 || d.RetryAfter < 0 || d.Contention < 0:
		return fmt.Errorf("sim: scenario %q: negative duration in Downstream", s.Name)
	case d.Outage.Start < 0 || d.Outage.Duration < 0 || d.StoreOutage.Start < 0 || d.StoreOutage.Duration < 0:
		return fmt.Errorf("sim: scenario %q: negative outage window", s.Name)
	case s.Horizon < 0 || s.Resolution < 0:
		return fmt.Errorf("sim: scenario %q: negative Horizon or Resolution", s.Name)
	}
	for _, r := range []struct {
		name string
		v    float64
	}{{"ErrorRate", d.ErrorRate}, {"InputErrorRate", d.InputErrorRate}, {"SlowRate", d.SlowRate}, {"KindShare", d.KindShare}} {
		if !(r.v >= 0 && r.v <= 1) {
			return fmt.Errorf("sim: scenario %q: Downstream.%s is %v; want a share in [0, 1]", s.Name, r.name, r.v)
		}
	}
	return nil
}

// Validate reports a bad client with a clear error.
func (c *Client) Validate() error {
	if len(c.Layers) > maxLayers {
		return fmt.Errorf("sim: client %q: %d retry layers; at most %d are simulated", c.Name, len(c.Layers), maxLayers)
	}
	for i := range c.Layers {
		if err := c.Layers[i].Policy.Validate(); err != nil {
			return fmt.Errorf("sim: client %q, layer %d: %w", c.Name, i+1, err)
		}
		for _, d := range c.Layers[i].Schedule {
			if d < 0 {
				return fmt.Errorf("sim: client %q, layer %d: negative wait %v in Schedule", c.Name, i+1, d)
			}
		}
		if c.Layers[i].Budget != nil {
			if _, err := retry.NewBudget(*c.Layers[i].Budget); err != nil {
				return fmt.Errorf("sim: client %q, layer %d: %w", c.Name, i+1, err)
			}
		}
	}
	if c.Bulkhead < 0 || c.Instances < 0 {
		return fmt.Errorf("sim: client %q: negative Bulkhead or Instances", c.Name)
	}
	if c.Breaker != nil {
		if _, err := breaker.New(*c.Breaker); err != nil {
			return fmt.Errorf("sim: client %q: %w", c.Name, err)
		}
	}
	return nil
}
