package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/retry"
	"github.com/resilint/resilint/sim"
	"github.com/resilint/resilint/sim/report"
)

const stormUsage = `usage: resilint storm [flags] [packages]

Simulates what retry policies do to a dependency in an outage and at its
recovery (docs/storm.md). Without packages it compares named policies:

	resilint storm -policy full,equal,none -clients 100000 -outage 5m -o DIR

With packages (or -site file.go:line) it simulates the retry sites that
resilint recognizes in them, as written: attempts, delays, jitter, caps and
nesting. Unknown values are replaced by stated assumptions, printed with
the results.

Policies: fixed, none (exponential without jitter), equal, full,
decorrelated (jitter), default (runtime/retry's zero Policy). Modes:
%s.

Exit status: 0 done; 1 the analysis or the simulation failed; 2 bad flags.

Flags:
`

// stormFlags are the flags of resilint storm.
type stormFlags struct {
	policy, mode, out, site       string
	clients, attempts, bulkhead   int
	instances, queue              int
	outage, base, maxDelay        time.Duration
	timeout, latency, restart     time.Duration
	retryAfter, horizon, resol    time.Duration
	spread                        time.Duration
	capacity, recovery, errorRate float64
	seed                          uint64
	breaker, perAttempt, budget   bool
	shared                        bool
	maxSites                      int
}

func (f *stormFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.policy, "policy", "", "comma-separated reference policies to compare (default: "+strings.Join(sim.ReferenceNames, ",")+"; with packages: none)")
	fs.StringVar(&f.mode, "mode", "outage", "how the dependency fails: "+strings.Join(sim.Modes, ", "))
	fs.StringVar(&f.out, "o", "", "write report.html, report.md, calls.svg and attempts.svg into this directory")
	fs.StringVar(&f.site, "site", "", "simulate only the retry site at file.go:line (with packages; default ./...)")
	fs.IntVar(&f.clients, "clients", 100000, "clients, one logical request each")
	fs.DurationVar(&f.outage, "outage", 0, "length of the outage (0: the mode's default)")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed: the same seed gives the same result")
	fs.IntVar(&f.attempts, "attempts", 0, "attempts of the reference policies (0: 6; the AWS contention mode: 10000)")
	fs.DurationVar(&f.base, "base", 0, "first delay of the reference policies (0: 1s)")
	fs.DurationVar(&f.maxDelay, "max", 0, "delay cap of the reference policies (0: 16s)")
	fs.DurationVar(&f.timeout, "timeout", 0, "per-attempt timeout of the reference policies (0: the mode's; none)")
	fs.Float64Var(&f.capacity, "capacity", -1, "calls per second the dependency serves, FIFO (0: unlimited; default: the mode's)")
	fs.Float64Var(&f.recovery, "recovery-capacity", -1, "capacity after the outage (default: the mode's)")
	fs.IntVar(&f.queue, "queue", -1, "the dependency's queue limit (0: one second of capacity; default: the mode's)")
	fs.DurationVar(&f.restart, "restart", -1, "how long the dependency stays down after falling over (default: the mode's)")
	fs.DurationVar(&f.latency, "latency", -1, "latency of a served call (default: the mode's)")
	fs.DurationVar(&f.retryAfter, "retry-after", 0, "Retry-After sent with every 503 (0: none)")
	fs.Float64Var(&f.errorRate, "error-rate", -1, "share of calls failing with 503 at any time (default: the mode's)")
	fs.DurationVar(&f.spread, "spread", -1, "the clients' requests start spread over this long (default: the mode's)")
	fs.DurationVar(&f.horizon, "horizon", 0, "stop the simulation at this virtual time (0: when every request is over)")
	fs.DurationVar(&f.resol, "resolution", 0, "width of the time series' steps (0: 1s)")
	fs.BoolVar(&f.breaker, "breaker", false, "put a runtime/breaker (default Config) around each logical request (on by default in the store mode, where its state is shared by the instances)")
	fs.BoolVar(&f.perAttempt, "breaker-per-attempt", false, "put the breaker around each attempt instead (implies -breaker; on by default in the partial mode)")
	fs.BoolVar(&f.budget, "budget", false, "give every retry layer a runtime/retry Budget (default BudgetConfig) per instance")
	fs.IntVar(&f.bulkhead, "bulkhead", 0, "a runtime/bulkhead of this many slots per instance (0: none)")
	fs.IntVar(&f.instances, "instances", 1, "client processes the clients are spread over (each has its own budget, breaker, bulkhead; 10 in the store mode)")
	fs.IntVar(&f.maxSites, "max-sites", 8, "simulate at most this many retry sites, those with the most calls first")
}

// scenario builds the scenario from the mode and the flags that override it.
func (f *stormFlags) scenario() (*sim.Scenario, sim.Shape, error) {
	s, shape, err := sim.Preset(f.mode, f.clients, f.outage, f.seed)
	if err != nil {
		return nil, shape, err
	}
	d := &s.Downstream
	set := func(v float64, dst *float64) {
		if v >= 0 {
			*dst = v
		}
	}
	setD := func(v time.Duration, dst *time.Duration) {
		if v >= 0 {
			*dst = v
		}
	}
	set(f.capacity, &d.Capacity)
	set(f.recovery, &d.RecoveryCapacity)
	set(f.errorRate, &d.ErrorRate)
	setD(f.restart, &d.RestartTime)
	setD(f.latency, &d.Latency)
	setD(f.spread, &s.Workload.Spread)
	if f.queue >= 0 {
		d.QueueLimit = f.queue
	}
	if f.retryAfter > 0 {
		d.RetryAfter = f.retryAfter
	}
	s.Horizon, s.Resolution = f.horizon, f.resol
	if f.attempts > 0 {
		shape.Attempts = f.attempts
	}
	if f.base > 0 {
		shape.Base = f.base
	}
	if f.maxDelay > 0 {
		shape.Max = f.maxDelay
	}
	if f.timeout > 0 {
		shape.Timeout = f.timeout
	}
	return s, shape, s.Validate()
}

// modeDefaults turns on what the partial and store modes are about, unless
// the flags say otherwise: a breaker (its half-open trials; its shared
// state), and for the store mode 10 instances sharing it.
func (f *stormFlags) modeDefaults(fs *flag.FlagSet) {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if f.mode == "partial" && !set["breaker"] && !set["breaker-per-attempt"] {
		// Per attempt: the failing kind's retries are what opens it.
		f.perAttempt = true
	}
	if f.mode == "store" && !set["breaker"] {
		f.breaker = true
	}
	if f.mode == "store" {
		f.shared = true
		if !set["instances"] {
			f.instances = 10
		}
	}
}

// decorate adds the client-side layers the flags ask for.
func (f *stormFlags) decorate(c *sim.Client) {
	c.SharedBreaker = f.shared
	if f.breaker || f.perAttempt {
		c.Breaker, c.BreakerPerAttempt = &breaker.Config{}, f.perAttempt
	}
	if f.budget {
		for i := range c.Layers {
			c.Layers[i].Budget = &retry.BudgetConfig{}
		}
	}
	c.Bulkhead, c.Instances = f.bulkhead, f.instances
}

func (f *stormFlags) check(fs *flag.FlagSet) error {
	var bad []string
	if f.clients <= 0 {
		bad = append(bad, fmt.Sprintf("-clients %d: want at least 1", f.clients))
	}
	if f.clients > 10_000_000 {
		bad = append(bad, fmt.Sprintf("-clients %d: at most 10000000 are simulated (about 200 bytes each)", f.clients))
	}
	for _, x := range []struct {
		name string
		v    time.Duration
	}{{"outage", f.outage}, {"base", f.base}, {"max", f.maxDelay}, {"timeout", f.timeout}, {"retry-after", f.retryAfter}, {"horizon", f.horizon}, {"resolution", f.resol}} {
		if x.v < 0 {
			bad = append(bad, fmt.Sprintf("-%s %v: want a positive duration", x.name, x.v))
		}
	}
	if f.resol > 0 && f.resol < time.Millisecond {
		bad = append(bad, fmt.Sprintf("-resolution %v: want at least 1ms", f.resol))
	}
	if f.attempts < 0 || f.bulkhead < 0 || f.instances < 1 || f.maxSites < 1 {
		bad = append(bad, "-attempts and -bulkhead must not be negative, -instances and -max-sites must be at least 1")
	}
	if f.base > 0 && f.maxDelay > 0 && f.base > f.maxDelay {
		bad = append(bad, fmt.Sprintf("-base %v is above -max %v", f.base, f.maxDelay))
	}
	if f.errorRate > 1 {
		bad = append(bad, fmt.Sprintf("-error-rate %v: want a share in [0, 1]", f.errorRate))
	}
	if f.site != "" {
		if i := strings.LastIndexByte(f.site, ':'); i <= 0 || !isDigits(f.site[i+1:]) {
			bad = append(bad, fmt.Sprintf("-site %q: want file.go:line", f.site))
		}
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "\n"))
	}
	return nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// runStorm is `resilint storm`; it returns the exit status.
func runStorm(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("resilint storm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f stormFlags
	f.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, stormUsage, strings.Join(sim.Modes, ", "))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	f.modeDefaults(fs)
	if err := f.check(fs); err != nil {
		fmt.Fprintf(stderr, "resilint storm: %v\n", err)
		return 2
	}
	s, shape, err := f.scenario()
	if err != nil {
		fmt.Fprintf(stderr, "resilint storm: %v\n", err)
		return 2
	}
	pkgs := fs.Args()
	if f.site != "" && len(pkgs) == 0 {
		pkgs = []string{"./..."}
	}
	names := f.policy
	if names == "" && len(pkgs) == 0 {
		names = strings.Join(sim.ReferenceNames, ",")
	}
	var clients []*sim.Client
	about := report.Clients{}
	if names != "" {
		for _, n := range strings.Split(names, ",") {
			n = strings.TrimSpace(n)
			p, err := sim.Reference(n, shape)
			if err != nil {
				fmt.Fprintf(stderr, "resilint storm: -policy: %v\n", err)
				return 2
			}
			c := &sim.Client{Name: n, Layers: []sim.Layer{{Policy: p}}}
			about[n] = sim.Describe(&p)
			clients = append(clients, c)
		}
	}
	if len(pkgs) > 0 {
		sites, notes, err := siteClients(pkgs, f.site, f.maxSites)
		if err != nil {
			fmt.Fprintf(stderr, "resilint storm: %v\n", err)
			return 1
		}
		for _, n := range notes {
			fmt.Fprintf(stderr, "resilint storm: %s\n", n)
		}
		for _, sc := range sites {
			about[sc.client.Name] = sc.about
			clients = append(clients, sc.client)
		}
		if len(clients) == 0 {
			fmt.Fprintf(stderr, "resilint storm: no retry site found in %s\n", strings.Join(pkgs, " "))
			return 1
		}
	}
	var results []*sim.Result
	for _, c := range clients {
		f.decorate(c)
		r, err := sim.Run(s, c)
		if err != nil {
			fmt.Fprintf(stderr, "resilint storm: %v\n", err)
			return 1
		}
		results = append(results, r)
	}
	if err := report.Table(stdout, s, results); err != nil {
		fmt.Fprintf(stderr, "resilint storm: %v\n", err)
		return 1
	}
	if f.out != "" {
		if err := report.Write(f.out, s, results, about); err != nil {
			fmt.Fprintf(stderr, "resilint storm: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "report written to %s\n", f.out)
	}
	return 0
}
