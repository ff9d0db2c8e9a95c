package sim

import (
	"fmt"
	"strings"
	"time"
)

// Modes are the downstream failure modes of Preset, from the design's test
// plan.
var Modes = []string{"outage", "transient", "restorm", "input", "slow", "partial", "store", "contention"}

// ModeDocs says in one line what each mode simulates.
var ModeDocs = map[string]string{
	"outage":     "a full outage for -outage, then recovery; requests arrive steadily before, during and after",
	"transient":  "20% of calls fail with 503 at any time; no outage",
	"restorm":    "every client's request meets a full outage; the dependency comes back with a capacity below the synchronized load and falls over again when its queue overflows",
	"input":      "10% of requests are bad input: 400 on every attempt, never retried",
	"slow":       "30% of successes take 2s more; with a 1s per-attempt timeout they are retried",
	"partial":    "only 30% of requests (one kind) fail during the outage while the other kind and the breaker's trials pass (half-open false positives)",
	"store":      "the dependency's outage is joined by an outage of the shared store that holds the breaker state: each instance falls back to a local breaker",
	"contention": "the AWS backoff simulation: clients start together and contend for one resource; a call conflicts with any call less than 1ms before it",
}

// Preset returns the scenario of a mode for clients clients, an outage of
// outage (zero: the mode's default), and a seed. The Shape is the mode's
// suggested schedule for the reference policies.
func Preset(mode string, clients int, outage time.Duration, seed uint64) (*Scenario, Shape, error) {
	if clients <= 0 {
		return nil, Shape{}, fmt.Errorf("sim: %d clients; want at least 1", clients)
	}
	if outage < 0 {
		return nil, Shape{}, fmt.Errorf("sim: negative outage %v", outage)
	}
	def := func(d time.Duration) time.Duration {
		if outage == 0 {
			return d
		}
		return outage
	}
	s := &Scenario{Name: mode, Seed: seed}
	var shape Shape
	steady := func(o time.Duration) {
		s.Downstream.Outage = Window{Start: 30 * time.Second, Duration: o}
		s.Workload = Workload{Clients: clients, Spread: 30*time.Second + o + 60*time.Second}
	}
	switch mode {
	case "outage":
		steady(def(time.Minute))
	case "transient":
		s.Downstream.ErrorRate = 0.2
		s.Workload = Workload{Clients: clients, Spread: time.Minute}
	case "restorm":
		s.Downstream = Downstream{
			Capacity: float64(clients) / 5, FallOver: true, RestartTime: 5 * time.Second,
			Latency: 50 * time.Millisecond, Outage: Window{Duration: def(5 * time.Second)},
		}
		s.Workload = Workload{Clients: clients, Spread: time.Second}
	case "input":
		s.Downstream.InputErrorRate = 0.1
		steady(def(0))
	case "slow":
		s.Downstream.SlowRate, s.Downstream.SlowLatency = 0.3, 2*time.Second
		s.Workload = Workload{Clients: clients, Spread: time.Minute}
		shape.Timeout = time.Second
	case "partial":
		steady(def(time.Minute))
		s.Downstream.KindShare = 0.3
	case "store":
		steady(def(time.Minute))
		o := s.Downstream.Outage
		s.Downstream.StoreOutage = Window{Start: o.Start + o.Duration/4, Duration: o.Duration / 2}
	case "contention":
		s.Downstream = Downstream{Contention: time.Millisecond, Latency: 5 * time.Millisecond}
		s.Workload = Workload{Clients: clients}
		shape = Shape{Attempts: 10000, Base: 10 * time.Millisecond, Max: 10 * time.Second}
	default:
		return nil, shape, fmt.Errorf("sim: unknown mode %q; known: %s", mode, strings.Join(Modes, ", "))
	}
	return s, shape, nil
}
