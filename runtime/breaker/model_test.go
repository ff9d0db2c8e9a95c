package breaker

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

var (
	longTests = flag.Bool("long", false, "run the model-based test with many more seeds")
	modelSeed = flag.Uint64("model.seed", 0, "run the model-based test with this seed only")
)

// model is the reference the Breaker is checked against: the same rules,
// written as plainly as possible, with slices and no concurrency.
type model struct {
	c      Config
	maxLat time.Duration
	rnd    func() float64

	state    State
	gen      uint64
	since    time.Duration
	window   []modelRecord // closed: every outcome of the generation, oldest first
	until    time.Duration // open
	admitted int           // half-open
	trials   int           // trials running, whichever round admitted them
	good     int
	bad      int
	streak   int
	closedAt time.Duration
	everOpen bool
}

type modelRecord struct {
	at            time.Duration
	failure, slow bool
}

func newModel(c Config, rnd func() float64) *model {
	m := &model{c: c, rnd: rnd, maxLat: c.HalfOpenMaxLatency}
	if m.maxLat == 0 {
		m.maxLat = c.SlowCallDuration
	}
	return m
}

// counts returns the outcomes inside the window at now.
func (m *model) counts(now time.Duration) (calls, failures, slow int64) {
	recs := m.window
	if m.c.WindowDuration == 0 {
		if len(recs) > m.c.WindowSize {
			recs = recs[len(recs)-m.c.WindowSize:]
		}
	} else {
		width := m.c.WindowDuration / time.Duration(m.c.WindowBuckets)
		cur := now / width
		var in []modelRecord
		for _, r := range recs {
			if step := r.at / width; step <= cur && step > cur-time.Duration(m.c.WindowBuckets) {
				in = append(in, r)
			}
		}
		recs = in
	}
	for _, r := range recs {
		calls++
		if r.failure {
			failures++
		}
		if r.slow {
			slow++
		}
	}
	return
}

func (m *model) enter(s State, now time.Duration) {
	m.state, m.since = s, now
	m.gen++
	m.window, m.admitted, m.good, m.bad = nil, 0, 0, 0
}

func (m *model) open(now time.Duration) {
	stable := !m.everOpen || now-m.closedAt >= m.c.OpenWaitResetAfter
	if m.state == StateClosed && stable {
		m.streak = 0
	} else {
		m.streak++
	}
	m.everOpen = true
	wait := m.c.MaxOpenWait
	if m.streak < 40 && m.c.OpenWait<<m.streak < m.c.MaxOpenWait {
		wait = m.c.OpenWait << m.streak
	}
	wait -= time.Duration(float64(wait) * m.c.OpenWaitJitter * m.rnd())
	m.enter(StateOpen, now)
	m.until = now + wait
}

func (m *model) admit(now time.Duration) (gen uint64, state State, err error) {
	for {
		switch m.state {
		case StateClosed:
			return m.gen, m.state, nil
		case StateOpen:
			if now < m.until {
				return 0, 0, ErrOpen
			}
			m.enter(StateHalfOpen, now)
		case StateHalfOpen:
			if m.admitted < m.c.HalfOpenTrials && m.trials < m.c.HalfOpenTrials {
				m.admitted++
				m.trials++
				return m.gen, m.state, nil
			}
			if now-m.since >= m.c.HalfOpenTimeout {
				m.open(now)
				continue
			}
			return 0, 0, ErrTooManyTrials
		}
	}
}

func (m *model) finish(gen uint64, state State, start, now time.Duration, o Outcome) {
	if state == StateHalfOpen {
		m.trials--
	}
	if gen != m.gen {
		return
	}
	if o == OutcomeIgnored {
		if state == StateHalfOpen {
			m.admitted--
		}
		return
	}
	lat := now - start
	switch m.state {
	case StateClosed:
		slow := m.c.SlowCallDuration > 0 && lat > m.c.SlowCallDuration
		m.window = append(m.window, modelRecord{now, o == OutcomeFailure, slow})
		calls, failures, slows := m.counts(now)
		if calls < int64(m.c.MinimumCalls) {
			return
		}
		if float64(failures)*100 >= m.c.FailureRateThreshold*float64(calls) ||
			m.c.SlowCallDuration > 0 && float64(slows)*100 >= m.c.SlowCallRateThreshold*float64(calls) {
			m.open(now)
		}
	case StateHalfOpen:
		if o == OutcomeSuccess && (m.maxLat == 0 || lat <= m.maxLat) {
			m.good++
		} else {
			m.bad++
		}
		switch {
		case m.good >= m.c.HalfOpenSuccesses:
			m.enter(StateClosed, now)
			m.closedAt = now
		case m.bad > m.c.HalfOpenTrials-m.c.HalfOpenSuccesses:
			m.open(now)
		}
	}
}

func randomConfig(r *rand.Rand, clk Clock, rnd func() float64) Config {
	ms := func(lo, hi int) time.Duration { return time.Duration(lo+r.IntN(hi-lo+1)) * time.Millisecond }
	c := Config{
		Clock:                 clk,
		Rand:                  rnd,
		FailureRateThreshold:  []float64{20, 50, 75, 100}[r.IntN(4)],
		SlowCallRateThreshold: []float64{30, 50, 100}[r.IntN(3)],
		OpenWait:              ms(100, 2000),
		OpenWaitJitter:        []float64{0.1, 0.5, 1}[r.IntN(3)],
		OpenWaitResetAfter:    ms(1000, 10000),
		HalfOpenTrials:        1 + r.IntN(5),
	}
	if r.IntN(2) == 0 {
		c.WindowSize = 1 + r.IntN(12)
		c.MinimumCalls = 1 + r.IntN(c.WindowSize)
	} else {
		c.WindowDuration = ms(1000, 10000)
		c.WindowBuckets = 1 + r.IntN(5)
		c.MinimumCalls = 1 + r.IntN(8)
	}
	c.MaxOpenWait = c.OpenWait * time.Duration(1<<r.IntN(5))
	c.HalfOpenSuccesses = 1 + r.IntN(c.HalfOpenTrials)
	if r.IntN(2) == 0 {
		c.SlowCallDuration = ms(50, 300)
	}
	if r.IntN(2) == 0 {
		c.HalfOpenMaxLatency = ms(50, 400)
	}
	c.HalfOpenTimeout = max(ms(500, 5000), c.HalfOpenMaxLatency, c.SlowCallDuration)
	return c
}

type modelCall struct {
	done       func(error)
	gen        uint64
	state      State
	start      time.Duration
	failure    bool
	ignoreMode bool
}

// TestModel drives random sequences of calls, outcomes, latencies and clock
// steps through a Breaker and through the model, and compares them after every
// step. Reproduce a failure with -model.seed=N.
func TestModel(t *testing.T) {
	seeds := 300
	if *longTests {
		seeds = 20000
	}
	first := uint64(1)
	if *modelSeed != 0 {
		first, seeds = *modelSeed, 1
	}
	seen := map[[2]State]int{}
	for seed := first; seed < first+uint64(seeds); seed++ {
		if msg := runModel(seed, 400, seen); msg != "" {
			t.Fatalf("seed %d (rerun with -run TestModel -model.seed=%d):\n%s", seed, seed, msg)
		}
	}
	t.Logf("transitions exercised: %v", seen)
	if *modelSeed == 0 {
		// Guard against a model test that has gone vacuous.
		for _, k := range [][2]State{{StateClosed, StateOpen}, {StateOpen, StateHalfOpen}, {StateHalfOpen, StateClosed}, {StateHalfOpen, StateOpen}} {
			if seen[k] < 100 {
				t.Errorf("only %d transitions %v -> %v", seen[k], k[0], k[1])
			}
		}
	}
}

func runModel(seed uint64, steps int, seen map[[2]State]int) string {
	r := rand.New(rand.NewPCG(seed, 0))
	clk := newFakeClock()
	t0 := clk.Now()
	bRand := rand.New(rand.NewPCG(seed, 1)).Float64
	mRand := rand.New(rand.NewPCG(seed, 1)).Float64
	c := randomConfig(r, clk, bRand)
	c.OnStateChange = func(t Transition) { seen[[2]State{t.From, t.To}]++ }
	b, err := New(c)
	if err != nil {
		return fmt.Sprintf("New(%+v): %v", c, err)
	}
	mc := c
	mc.Rand, mc.OnStateChange = nil, nil
	m := newModel(mc, mRand)

	var log []string
	logf := func(format string, args ...any) {
		log = append(log, fmt.Sprintf("%v ", clk.Now().Sub(t0))+fmt.Sprintf(format, args...))
	}
	var pending []modelCall
	failP := 0.0
	for step := range steps {
		now := clk.Now().Sub(t0)
		if step%40 == 0 {
			failP = []float64{0, 0.1, 0.5, 0.9, 1}[r.IntN(5)]
			logf("failure probability %v", failP)
		}
		switch a := r.IntN(100); {
		case a < 45 && len(pending) < 8:
			done, err := b.Allow()
			gen, state, merr := m.admit(now)
			logf("admit: breaker %v, model %v", err, merr)
			if err != merr {
				return fmt.Sprintf("config %+v\n%s\nadmit: breaker %v, model %v", c, strings.Join(log, "\n"), err, merr)
			}
			if err == nil {
				pending = append(pending, modelCall{done: done, gen: gen, state: state, start: now})
			}
		case a < 80 && len(pending) > 0:
			i := r.IntN(len(pending))
			call := pending[i]
			pending = append(pending[:i], pending[i+1:]...)
			var err error
			o := OutcomeSuccess
			switch x := r.Float64(); {
			case x < 0.08:
				err, o = context.Canceled, OutcomeIgnored
			case x < 0.08+failP*0.92:
				err, o = errDown, OutcomeFailure
			}
			logf("finish call of generation %d started at %v: %v", call.gen, call.start, o)
			call.done(err)
			m.finish(call.gen, call.state, call.start, now, o)
		default:
			d := time.Duration(r.IntN(150)) * time.Millisecond
			if r.IntN(10) < 3 {
				d = time.Duration(500+r.IntN(5500)) * time.Millisecond
			}
			clk.Advance(d)
			logf("advance %v", d)
		}
		if msg := compare(b, m, clk.Now().Sub(t0), t0); msg != "" {
			return fmt.Sprintf("config %+v\n%s\n%s", c, strings.Join(log, "\n"), msg)
		}
	}
	return ""
}

func compare(b *Breaker, m *model, now time.Duration, t0 time.Time) string {
	got := b.Metrics()
	want := Metrics{State: m.state, Generation: m.gen, Rejected: got.Rejected}
	switch m.state {
	case StateClosed:
		want.Calls, want.Failures, want.SlowCalls = m.counts(now)
	case StateOpen:
		want.OpenUntil = t0.Add(m.until)
	case StateHalfOpen:
		want.Calls, want.Failures = int64(m.good+m.bad), int64(m.bad)
	}
	if want.Calls > 0 {
		want.FailureRate = float64(want.Failures) * 100 / float64(want.Calls)
		want.SlowCallRate = float64(want.SlowCalls) * 100 / float64(want.Calls)
	}
	if got != want {
		return fmt.Sprintf("metrics differ:\nbreaker %+v\nmodel   %+v", got, want)
	}
	return ""
}
