package breaker

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Breaker is a circuit breaker. Create one with New; the zero value is not
// usable. A Breaker is safe for concurrent use by multiple goroutines; share
// one per dependency.
type Breaker struct {
	cur      atomic.Pointer[generation]
	s        *settings
	epoch    time.Time
	needNow  bool // closed calls read the clock: slow-call judging or a time window
	rejected atomic.Uint64
	// trials counts the trial calls running now, whichever half-open round
	// admitted them: a round already lost does not free its trials' places
	// until they finish.
	trials atomic.Int64

	mu         sync.Mutex // serializes state changes; guards the fields below
	streak     int        // consecutive reopenings without a stable close
	closedAt   int64      // when the circuit last closed
	history    []Transition
	histNext   int // index of the next history entry to overwrite
	pending    []Transition
	delivering bool
}

// generation is one stay in one state. It is replaced, never reused, at every
// state change, so an outcome recorded in a generation that is no longer
// current cannot affect the current one.
type generation struct {
	id    uint64
	state State
	since int64 // ns since the breaker's epoch

	// StateClosed.
	cw *countWindow
	tw *timeWindow

	// StateOpen.
	until int64

	// StateHalfOpen.
	admitted  atomic.Int64 // trials admitted and not ignored
	good, bad atomic.Int64
}

// New returns a Breaker in the closed state, or a *ConfigError if c is invalid.
func New(c Config) (*Breaker, error) {
	s, err := c.settings()
	if err != nil {
		return nil, err
	}
	b := &Breaker{s: s, needNow: s.slowCall > 0 || s.bucketWidth > 0}
	if s.Clock != nil {
		b.epoch = s.Clock.Now()
	} else {
		b.epoch = time.Now()
	}
	b.closedAt = -int64(s.OpenWaitResetAfter)
	b.cur.Store(b.newClosed(0, 0))
	return b, nil
}

func (b *Breaker) newClosed(id uint64, now int64) *generation {
	g := &generation{id: id, state: StateClosed, since: now}
	if b.s.bucketWidth > 0 {
		g.tw = newTimeWindow(b.s.bucketWidth, b.s.WindowBuckets)
	} else {
		g.cw = newCountWindow(b.s.WindowSize)
	}
	return g
}

// now returns the time since the epoch in nanoseconds.
func (b *Breaker) now() int64 {
	if b.s.Clock == nil {
		return int64(time.Since(b.epoch))
	}
	return int64(b.s.Clock.Now().Sub(b.epoch))
}

// Name returns Config.Name.
func (b *Breaker) Name() string { return b.s.Name }

// State returns the current state. An open circuit whose wait has elapsed
// reports StateOpen until the next call moves it to half-open.
func (b *Breaker) State() State { return b.cur.Load().state }

// Do calls op unless ctx is already done (it returns ctx.Err()) or the circuit
// rejects the call (it returns ErrOpen or ErrTooManyTrials); otherwise it
// records op's outcome and returns its error. If op panics, the call is
// recorded as a failure and the panic goes on.
func (b *Breaker) Do(ctx context.Context, op func(context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	g, start, err := b.admit()
	if err != nil {
		return err
	}
	finished := false
	defer func() {
		if !finished {
			b.record(g, start, OutcomeFailure)
		}
	}()
	err = op(ctx)
	finished = true
	b.record(g, start, b.classify(ctx, err))
	return err
}

// Execute is Do for an operation that returns a value. On a rejection or a
// done ctx it returns the zero T and the error.
func Execute[T any](ctx context.Context, b *Breaker, op func(context.Context) (T, error)) (T, error) {
	if err := ctx.Err(); err != nil {
		var zero T
		return zero, err
	}
	g, start, err := b.admit()
	if err != nil {
		var zero T
		return zero, err
	}
	finished := false
	defer func() {
		if !finished {
			b.record(g, start, OutcomeFailure)
		}
	}()
	v, err := op(ctx)
	finished = true
	b.record(g, start, b.classify(ctx, err))
	return v, err
}

// Allow is the two-step form of Do, for calls that cannot be wrapped in a
// function. If the call may proceed, Allow returns a done function to be called
// exactly once with the call's error (nil for success); later calls of done do
// nothing. Otherwise it returns ErrOpen or ErrTooManyTrials. The latency of the
// call is measured from Allow to done. Unlike Do, Allow allocates the done
// closure.
func (b *Breaker) Allow() (done func(err error), err error) {
	g, start, err := b.admit()
	if err != nil {
		return nil, err
	}
	var used atomic.Bool
	return func(err error) {
		if used.CompareAndSwap(false, true) {
			o := OutcomeSuccess
			if err != nil {
				o = b.s.Classify(err)
			}
			b.record(g, start, o)
		}
	}, nil
}

func (b *Breaker) classify(ctx context.Context, err error) Outcome {
	if err == nil {
		return OutcomeSuccess
	}
	if ctx.Err() == context.Canceled {
		return OutcomeIgnored
	}
	return b.s.Classify(err)
}

// admit decides whether a call may proceed and returns the generation it was
// admitted in and its start time (zero when no latency is needed).
func (b *Breaker) admit() (*generation, int64, error) {
	for {
		g := b.cur.Load()
		switch g.state {
		case StateClosed:
			if b.s.slowCall > 0 {
				return g, b.now(), nil
			}
			return g, 0, nil
		case StateOpen:
			now := b.now()
			if now < g.until {
				b.rejected.Add(1)
				return nil, 0, ErrOpen
			}
			b.transition(g, now, StateHalfOpen, "open wait of "+time.Duration(g.until-g.since).String()+" elapsed")
		default:
			now := b.now()
			if b.tryAdmitTrial(g) {
				return g, now, nil
			}
			if now-g.since >= b.s.halfOpenTimeout {
				b.transition(g, now, StateOpen, "trial calls did not finish within "+b.s.HalfOpenTimeout.String())
				continue
			}
			b.rejected.Add(1)
			return nil, 0, ErrTooManyTrials
		}
	}
}

// tryAdmitTrial takes a place for a trial in half-open generation g: one of
// the round's HalfOpenTrials, and one of the HalfOpenTrials that may run at
// once across rounds.
func (b *Breaker) tryAdmitTrial(g *generation) bool {
	limit := int64(b.s.HalfOpenTrials)
	if !tryInc(&b.trials, limit) {
		return false
	}
	if !tryInc(&g.admitted, limit) {
		b.trials.Add(-1)
		return false
	}
	return true
}

// tryInc adds 1 to n unless that would pass limit.
func tryInc(n *atomic.Int64, limit int64) bool {
	for {
		v := n.Load()
		if v >= limit {
			return false
		}
		if n.CompareAndSwap(v, v+1) {
			return true
		}
	}
}

// record consumes the outcome of a call admitted in generation g.
func (b *Breaker) record(g *generation, start int64, o Outcome) {
	if g.state == StateHalfOpen {
		b.trials.Add(-1) // the trial is over, whatever its round became
	}
	if o == OutcomeIgnored {
		if g.state == StateHalfOpen {
			g.admitted.Add(-1)
		}
		return
	}
	if b.cur.Load() != g {
		return // an earlier generation: the outcome has no say any more
	}
	if g.state == StateClosed {
		var now int64
		slow := false
		var c counts
		if b.needNow {
			now = b.now()
			slow = b.s.slowCall > 0 && now-start > b.s.slowCall
		}
		if g.tw != nil {
			c = g.tw.record(now, o == OutcomeFailure, slow)
		} else {
			c = g.cw.record(o == OutcomeFailure, slow)
		}
		if c.calls >= int64(b.s.MinimumCalls) {
			if reason := b.tripReason(c); reason != "" {
				if !b.needNow {
					now = b.now()
				}
				b.transition(g, now, StateOpen, reason)
			}
		}
		return
	}
	// StateHalfOpen.
	now := b.now()
	lat := now - start
	k := int64(b.s.HalfOpenSuccesses)
	n := int64(b.s.HalfOpenTrials)
	if o == OutcomeSuccess && (b.s.halfOpenMaxLatency == 0 || lat <= b.s.halfOpenMaxLatency) {
		if g.good.Add(1) == k {
			b.transition(g, now, StateClosed, fmt.Sprintf("%d of %d trial calls succeeded%s", k, n, b.latencyNote(" within ")))
		}
		return
	}
	if g.bad.Add(1) == n-k+1 {
		b.transition(g, now, StateOpen, fmt.Sprintf("%d of %d trial calls failed%s", n-k+1, n, b.latencyNote(" or took longer than ")))
	}
}

func (b *Breaker) latencyNote(prefix string) string {
	if b.s.halfOpenMaxLatency == 0 {
		return ""
	}
	return prefix + b.s.HalfOpenMaxLatency.String()
}

// tripReason returns why counts c open the circuit, or "".
func (b *Breaker) tripReason(c counts) string {
	calls := float64(c.calls)
	if fr := float64(c.failures) * 100; fr >= b.s.FailureRateThreshold*calls {
		return fmt.Sprintf("failure rate %.1f%% >= %.1f%% over %s", fr/calls, b.s.FailureRateThreshold, b.windowNote(c.calls))
	}
	if b.s.slowCall > 0 {
		if sr := float64(c.slow) * 100; sr >= b.s.SlowCallRateThreshold*calls {
			return fmt.Sprintf("slow-call rate %.1f%% >= %.1f%% (slower than %s) over %s", sr/calls, b.s.SlowCallRateThreshold, b.s.SlowCallDuration, b.windowNote(c.calls))
		}
	}
	return ""
}

func (b *Breaker) windowNote(calls int64) string {
	if b.s.bucketWidth > 0 {
		return fmt.Sprintf("%d calls in the last %s", calls, b.s.WindowDuration)
	}
	return fmt.Sprintf("the last %d calls", calls)
}

// openWait returns the jittered wait for the current streak. Called with mu held.
func (b *Breaker) openWait() time.Duration {
	w := b.s.OpenWait
	for i := 0; i < b.streak && w < b.s.MaxOpenWait; i++ {
		w *= 2
	}
	w = min(w, b.s.MaxOpenWait)
	r := b.s.Rand
	if r == nil {
		r = rand.Float64
	}
	return w - time.Duration(float64(w)*b.s.OpenWaitJitter*r())
}

// transition moves the circuit from generation from to a new generation in
// state to, unless from is no longer current (another goroutine got there
// first).
func (b *Breaker) transition(from *generation, now int64, to State, reason string) {
	b.mu.Lock()
	if b.cur.Load() != from {
		b.mu.Unlock()
		return
	}
	var g *generation
	t := Transition{
		Time:       b.epoch.Add(time.Duration(now)),
		Breaker:    b.s.Name,
		From:       from.state,
		To:         to,
		Reason:     reason,
		Generation: from.id + 1,
	}
	switch to {
	case StateClosed:
		g = b.newClosed(from.id+1, now)
		b.closedAt = now
	case StateOpen:
		if from.state == StateClosed && now-b.closedAt >= int64(b.s.OpenWaitResetAfter) {
			b.streak = 0
		} else if b.streak < 64 {
			b.streak++
		}
		w := b.openWait()
		g = &generation{id: from.id + 1, state: StateOpen, since: now, until: now + int64(w)}
		t.OpenUntil = t.Time.Add(w)
	case StateHalfOpen:
		g = &generation{id: from.id + 1, state: StateHalfOpen, since: now}
	}
	b.cur.Store(g)
	b.remember(t)
	if b.s.OnStateChange == nil {
		b.mu.Unlock()
		return
	}
	b.pending = append(b.pending, t)
	if b.delivering {
		b.mu.Unlock() // the goroutine delivering will deliver t too, in order
		return
	}
	b.delivering = true
	for len(b.pending) > 0 {
		t := b.pending[0]
		b.pending = b.pending[1:]
		b.mu.Unlock()
		b.deliver(t)
		b.mu.Lock()
	}
	b.pending = nil
	b.delivering = false
	b.mu.Unlock()
}

// deliver calls the listener; if it panics, delivery is released for others
// before the panic goes on.
func (b *Breaker) deliver(t Transition) {
	ok := false
	defer func() {
		if !ok {
			b.mu.Lock()
			b.delivering = false
			b.mu.Unlock()
		}
	}()
	b.s.OnStateChange(t)
	ok = true
}

// remember adds t to the bounded history. Called with mu held.
func (b *Breaker) remember(t Transition) {
	if len(b.history) < b.s.HistorySize {
		b.history = append(b.history, t)
		return
	}
	b.history[b.histNext] = t
	b.histNext = (b.histNext + 1) % len(b.history)
}

// History returns the latest transitions (at most Config.HistorySize), oldest
// first.
func (b *Breaker) History() []Transition {
	b.mu.Lock()
	defer b.mu.Unlock()
	h := make([]Transition, 0, len(b.history))
	h = append(h, b.history[b.histNext:]...)
	return append(h, b.history[:b.histNext]...)
}

// WriteHistory writes History to w as JSON lines: one Transition object per
// line, oldest first.
func (b *Breaker) WriteHistory(w io.Writer) error {
	enc := json.NewEncoder(w)
	for _, t := range b.History() {
		if err := enc.Encode(t); err != nil {
			return err
		}
	}
	return nil
}

// Metrics is a snapshot of a Breaker, from Breaker.Metrics.
type Metrics struct {
	// State is the current state and Generation the number of state changes
	// so far.
	State      State
	Generation uint64
	// Calls, Failures and SlowCalls count the outcomes in the closed state's
	// window; in the half-open state, the trials with a verdict. Zero while
	// open.
	Calls, Failures, SlowCalls int64
	// FailureRate and SlowCallRate are in percent of Calls (zero without calls).
	FailureRate, SlowCallRate float64
	// Rejected counts the calls rejected with ErrOpen or ErrTooManyTrials since
	// the breaker was created.
	Rejected uint64
	// OpenUntil is when the open wait ends, while open.
	OpenUntil time.Time
}

// Metrics returns a snapshot of the breaker. Under concurrent calls its counts
// may miss the outcomes being recorded at that moment.
func (b *Breaker) Metrics() Metrics {
	g := b.cur.Load()
	m := Metrics{State: g.state, Generation: g.id, Rejected: b.rejected.Load()}
	var c counts
	switch g.state {
	case StateClosed:
		if g.tw != nil {
			c = g.tw.countsAt(b.now())
		} else {
			c = g.cw.counts()
		}
	case StateOpen:
		m.OpenUntil = b.epoch.Add(time.Duration(g.until))
	case StateHalfOpen:
		good, bad := g.good.Load(), g.bad.Load()
		c = counts{calls: good + bad, failures: bad}
	}
	m.Calls, m.Failures, m.SlowCalls = c.calls, c.failures, c.slow
	if c.calls > 0 {
		m.FailureRate = float64(c.failures) * 100 / float64(c.calls)
		m.SlowCallRate = float64(c.slow) * 100 / float64(c.calls)
	}
	return m
}
