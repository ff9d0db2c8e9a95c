// Package sim is resilint's storm simulator: a deterministic discrete-event
// simulation, on virtual time, of many clients calling one dependency
// through the runtime's real retry, budget, breaker and bulkhead logic,
// while the dependency fails in one of the ways of [Downstream].
//
// There is no goroutine and no sleep per client: each client is a small
// struct, each call and each wait an event in one heap, so 500,000 clients
// over a 10-minute outage simulate in seconds on one core. The same
// scenario and seed give the same [Result], bit for bit.
//
// What comes from the runtime, unchanged: the wait before each retry
// (runtime/retry's Policy.Delay, with each client's own seeded source),
// the classification of errors (retry.Retryable or the policy's Classify),
// the retry budget (retry.Budget, on virtual time through TryWithdrawAt),
// the circuit breaker (runtime/breaker with the simulator's clock) and the
// bulkhead (runtime/bulkhead's TryAcquire and Release). What the simulator
// does itself is the order of retry.Do's decisions after a failed attempt
// (permanent or breaker-open errors stop, the classifier, the attempt
// bound, the delay, Retry-After, the budget), which runtime/retry does not
// export; a test checks it against retry.Do.
package sim

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/bulkhead"
	"github.com/resilint/resilint/runtime/retry"
)

// maxLayers is the deepest retry nesting simulated.
const maxLayers = 8

// The errors the simulated dependency and client layers return. They are
// the runtime's own error types, so the runtime's classifiers judge them.
var (
	errUnavailable = &retry.StatusError{StatusCode: 503, Status: "503 Service Unavailable"}
	errBadInput    = &retry.StatusError{StatusCode: 400, Status: "400 Bad Request"}
	errConflict    = &retry.StatusError{StatusCode: 503, Status: "503 conflict (simulated contention)"}
	errLimited     = &retry.StatusError{StatusCode: 429, Status: "429 limited by the client's own limiter"}
	errTimeout     = errors.New("sim: attempt timed out (PerAttemptTimeout)")
)

// timeoutError makes errTimeout a timeout for the classifiers.
type timeoutError struct{}

func (timeoutError) Error() string   { return errTimeout.Error() }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

var errAttemptTimeout error = timeoutError{}

const (
	evStart uint8 = iota
	evDone
	evRetry
)

const (
	stIdle uint8 = iota
	stCall
	stWait
	stDone
)

// client is one simulated client's state.
type client struct {
	rng      rng
	inst     int32
	gen      uint32 // generation of the call in flight; events of another are stale
	state    uint8
	layer    int8 // the layer whose retry is pending
	kindB    bool // the failing kind, for a partial outage
	bad      bool // a bad-input request: 400 on every attempt
	failed   bool // a call failed before the recovery
	attempts int32
	start    int64
	n        [maxLayers]int32
	prev     [maxLayers]time.Duration
	err      error // outcome of the call in flight
	reqDone  func(error)
	attDone  func(error)
	bulk     *bulkhead.Bulkhead
}

// instance is one client process: its budgets, breaker, bulkhead, limiter.
type instance struct {
	budgets [maxLayers]*retry.Budget
	breaker *breaker.Breaker
	bulk    *bulkhead.Bulkhead
	limiter Limiter
}

type qent struct {
	end    int64
	client int32
	gen    uint32
}

// run is one simulation of one client under one scenario.
type run struct {
	sc    *Scenario
	cl    *Client
	d     Downstream
	epoch time.Time
	now   int64
	q     queue
	cs    []client
	insts []instance

	sharedBreaker *breaker.Breaker
	sharedLimiter Limiter
	layers        []Layer
	maxAttempts   [maxLayers]int
	maxDelay      [maxLayers]time.Duration
	pat           time.Duration // innermost PerAttemptTimeout

	srv      rng
	down     int64 // crashed until
	lastEnd  int64
	lastCall int64 // for Contention
	anyCall  bool
	fifo     []qent
	fhead    int
	recovery int64 // the outage's end, -1 if none

	res    *Result
	hist   []int64 // attempts per logical request: hist[k] requests made k
	inflt  int
	wait   int
	active int
}

// clock is the breaker's Clock on virtual time.
type clock struct{ r *run }

func (c clock) Now() time.Time { return c.r.epoch.Add(time.Duration(c.r.now)) }

// Run simulates the clients of c under scenario s and returns what
// happened. It returns an error only for a bad scenario or client.
func Run(s *Scenario, c *Client) (*Result, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	r := &run{sc: s, cl: c, d: s.Downstream, epoch: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	if r.d.Latency == 0 {
		r.d.Latency = 10 * time.Millisecond
	}
	if r.d.FailLatency == 0 {
		r.d.FailLatency = time.Millisecond
	}
	r.layers = c.Layers
	for i := range r.layers {
		p := &r.layers[i].Policy
		r.maxAttempts[i] = p.MaxAttempts
		if r.maxAttempts[i] == 0 {
			r.maxAttempts[i] = retry.DefaultMaxAttempts
		}
		// The policy's effective MaxDelay, read through the runtime: the
		// cap of a late retry without jitter is MaxDelay.
		flat := *p
		flat.Jitter, flat.Rand, flat.Budget = retry.JitterNone, nil, nil
		r.maxDelay[i] = flat.Delay(62, 0, nil)
	}
	if n := len(r.layers); n > 0 {
		r.pat = r.layers[n-1].Policy.PerAttemptTimeout
	}
	r.recovery = -1
	if r.d.Outage.Duration > 0 {
		r.recovery = int64(r.d.Outage.End())
	}
	r.srv = seedFor(s.Seed, 1<<40)
	res := &Result{Client: c.Name, Scenario: s.Name, Resolution: s.Resolution, Notes: c.Notes}
	if res.Resolution == 0 {
		res.Resolution = time.Second
	}
	r.res = res
	if err := r.setup(); err != nil {
		return nil, err
	}
	r.loop()
	r.finish()
	return res, nil
}

func (r *run) newBreaker(name string, stream uint64) (*breaker.Breaker, error) {
	cfg := *r.cl.Breaker
	cfg.Name = name
	cfg.Clock = clock{r}
	src := seedFor(r.sc.Seed, stream)
	cfg.Rand = src.Float64
	cfg.OnStateChange = func(t breaker.Transition) {
		switch t.To {
		case breaker.StateOpen:
			r.res.BreakerOpens++
		case breaker.StateClosed:
			r.res.BreakerCloses++
			if r.d.KindShare > 0 && r.d.Outage.has(r.now) {
				r.res.FalseCloses++
			}
		}
	}
	return breaker.New(cfg)
}

func (r *run) setup() error {
	s, c := r.sc, r.cl
	ni := max(c.Instances, 1)
	r.insts = make([]instance, ni)
	for i := range r.insts {
		in := &r.insts[i]
		for l := range r.layers {
			if bc := r.layers[l].Budget; bc != nil {
				b, err := retry.NewBudget(*bc)
				if err != nil {
					return err
				}
				in.budgets[l] = b
			}
		}
		if c.Breaker != nil {
			b, err := r.newBreaker(c.Name, 1<<41+uint64(i))
			if err != nil {
				return err
			}
			in.breaker = b
		}
		if c.Bulkhead > 0 {
			b, err := bulkhead.New(bulkhead.Config{MaxConcurrent: c.Bulkhead})
			if err != nil {
				return err
			}
			in.bulk = b
		}
		if c.NewLimiter != nil {
			in.limiter = c.NewLimiter()
		}
	}
	if c.SharedBreaker && c.Breaker != nil {
		b, err := r.newBreaker(c.Name+" (shared)", 1<<42)
		if err != nil {
			return err
		}
		r.sharedBreaker = b
	}
	if c.SharedBreaker && c.NewLimiter != nil {
		r.sharedLimiter = c.NewLimiter()
	}
	n := s.Workload.Clients
	r.cs = make([]client, n)
	r.hist = make([]int64, 64)
	r.q.h = make([]event, 0, min(n, 1<<20)+16)
	for i := range r.cs {
		cl := &r.cs[i]
		cl.rng = seedFor(s.Seed, uint64(i))
		cl.inst = int32(i % ni)
		at := int64(s.Workload.Start)
		if s.Workload.Spread > 0 {
			at += cl.rng.Int64N(int64(s.Workload.Spread))
		}
		cl.bad = r.d.InputErrorRate > 0 && cl.rng.Float64() < r.d.InputErrorRate
		cl.kindB = r.d.KindShare > 0 && cl.rng.Float64() < r.d.KindShare
		r.q.push(mkEvent(at, int32(i), evStart, 0))
	}
	r.res.Requests = int64(n)
	return nil
}

func (r *run) loop() {
	horizon := int64(math.MaxInt64)
	if r.sc.Horizon > 0 {
		horizon = int64(r.sc.Horizon)
	}
	for r.q.len() > 0 {
		e := r.q.pop()
		if e.at > horizon {
			break
		}
		r.now = e.at
		cl := &r.cs[e.client]
		switch e.kind() {
		case evStart:
			r.begin(e.client, cl)
		case evDone:
			if e.gen() != cl.gen&(1<<30-1) || cl.state != stCall {
				continue // a call that already ended (failed by a crash)
			}
			r.done(e.client, cl)
		case evRetry:
			r.wait--
			r.attempt(e.client, cl, int(cl.layer))
		}
	}
	r.res.End = time.Duration(r.now)
}

// breakerFor returns the breaker the client uses now.
func (r *run) breakerFor(cl *client) *breaker.Breaker {
	if r.sharedBreaker != nil && !r.d.StoreOutage.has(r.now) {
		return r.sharedBreaker
	}
	return r.insts[cl.inst].breaker
}

func (r *run) limiterFor(cl *client) Limiter {
	if r.sharedLimiter != nil && !r.d.StoreOutage.has(r.now) {
		return r.sharedLimiter
	}
	return r.insts[cl.inst].limiter
}

// begin starts a client's logical request.
func (r *run) begin(id int32, cl *client) {
	cl.start = r.now
	r.active++
	if r.cl.Breaker != nil && !r.cl.BreakerPerAttempt {
		done, err := r.breakerFor(cl).Allow()
		if err != nil {
			r.res.RejectBreaker++
			r.end(cl, err)
			return
		}
		cl.reqDone = done
	}
	r.enter(id, cl, 0)
}

// enter starts layer i's run (a call of retry.Do) and its first attempt.
func (r *run) enter(id int32, cl *client, i int) {
	if i >= len(r.layers) {
		r.call(id, cl)
		return
	}
	if b := r.insts[cl.inst].budgets[i]; b != nil {
		b.Deposit()
	}
	cl.n[i], cl.prev[i] = 1, 0
	r.enter(id, cl, i+1)
}

// attempt makes the next attempt of layer i after its delay.
func (r *run) attempt(id int32, cl *client, i int) {
	cl.n[i]++
	r.enter(id, cl, i+1)
}

// call makes one downstream call (or is turned down on the client side).
func (r *run) call(id int32, cl *client) {
	cl.attempts++
	in := &r.insts[cl.inst]
	if r.cl.Breaker != nil && r.cl.BreakerPerAttempt {
		done, err := r.breakerFor(cl).Allow()
		if err != nil {
			r.res.RejectBreaker++
			r.fail(id, cl, len(r.layers)-1, err)
			return
		}
		cl.attDone = done
	}
	if lim := r.limiterFor(cl); lim != nil && !lim.Allow(r.epoch.Add(time.Duration(r.now))) {
		r.res.RejectLimiter++
		r.settleAttempt(cl, context.Canceled) // not made: no outcome
		r.fail(id, cl, len(r.layers)-1, errLimited)
		return
	}
	if in.bulk != nil {
		if !in.bulk.TryAcquire() {
			r.res.RejectBulkhead++
			r.settleAttempt(cl, context.Canceled) // not made: no outcome
			r.fail(id, cl, len(r.layers)-1, bulkhead.ErrFull)
			return
		}
		cl.bulk = in.bulk
	}
	err, at := r.serve(id, cl)
	cl.err = err
	cl.state = stCall
	r.inflt++
	r.res.Calls++
	b := r.bucket()
	b.Calls++
	if cl.attempts > 1 {
		r.res.Retries++
		b.Retries++
		if r.recovery >= 0 && r.now >= r.recovery {
			r.res.RetriesAfterRecovery++
			if r.now < r.recovery+int64(time.Second) {
				r.res.RetriesFirstSecond++
			}
		}
	}
	b.InFlight = max(b.InFlight, r.inflt)
	r.res.MaxInFlight = max(r.res.MaxInFlight, r.inflt)
	r.q.push(mkEvent(at, id, evDone, cl.gen))
}

// settleAttempt reports an attempt's outcome to a per-attempt breaker.
func (r *run) settleAttempt(cl *client, err error) {
	if cl.attDone != nil {
		cl.attDone(err)
		cl.attDone = nil
	}
}

// done ends the call in flight.
func (r *run) done(id int32, cl *client) {
	r.inflt--
	cl.state = stIdle
	cl.gen++
	if cl.bulk != nil {
		cl.bulk.Release()
		cl.bulk = nil
	}
	err := cl.err
	cl.err = nil
	r.settleAttempt(cl, err)
	if err == nil {
		r.bucket().Successes++
		r.end(cl, nil)
		return
	}
	if r.recovery >= 0 && r.now < r.recovery {
		cl.failed = true
	}
	r.fail(id, cl, len(r.layers)-1, err)
}

// fail is what layer i does when its attempt failed with err: the decisions
// of retry.Do, in its order. i < 0 means no layer is left: the logical
// request ends with err.
func (r *run) fail(id int32, cl *client, i int, err error) {
	for ; i >= 0; i-- {
		next, d := r.decide(cl, i, err)
		if next == nil {
			cl.prev[i] = d
			cl.layer = int8(i)
			cl.state = stWait
			r.wait++
			b := r.bucket()
			b.Waiting = max(b.Waiting, r.wait)
			r.res.MaxWaiting = max(r.res.MaxWaiting, r.wait)
			at := r.now + int64(d)
			if r.recovery >= 0 && r.now < r.recovery && at >= r.recovery {
				r.res.PendingAtRecovery++
				if at < r.recovery+int64(time.Second) {
					r.res.PendingFirstSecond++
				}
			}
			r.q.push(mkEvent(at, id, evRetry, 0))
			return
		}
		err = next // layer i gave up: its caller, layer i-1, sees this error
	}
	r.end(cl, err)
}

// decide returns (nil, delay) when layer i retries after delay, or the
// error its retry.Do returns when it stops.
func (r *run) decide(cl *client, i int, err error) (error, time.Duration) {
	p := &r.layers[i].Policy
	n := int(cl.n[i])
	if retry.IsPermanent(err) || retry.IsCircuitOpen(err) {
		return err, 0
	}
	if p.Classify != nil && !p.Classify(err) || p.Classify == nil && !retry.Retryable(err, p.Idempotent) {
		return err, 0
	}
	if n >= r.maxAttempts[i] {
		return &retry.Error{Attempts: n, Reason: retry.ErrAttemptsExhausted, Err: err}, 0
	}
	var d time.Duration
	if sch := r.layers[i].Schedule; len(sch) > 0 {
		d = sch[min(n-1, len(sch)-1)]
	} else {
		d = p.Delay(n-1, cl.prev[i], &cl.rng)
	}
	if ra := retryAfterOf(err); ra > 0 {
		if ra > r.maxDelay[i] {
			return &retry.Error{Attempts: n, Reason: retry.ErrRetryAfterTooLong, Err: err}, 0
		}
		d = max(d, ra)
	}
	if b := r.insts[cl.inst].budgets[i]; b != nil && !b.TryWithdrawAt(r.epoch.Add(time.Duration(r.now))) {
		r.res.RejectBudget++
		return &retry.Error{Attempts: n, Reason: retry.ErrBudgetExhausted, Err: err}, 0
	}
	return nil, d
}

// retryAfterOf is the wait err asks for: the first error in its tree with a
// RetryAfter() time.Duration method, as retry.Do reads it.
func retryAfterOf(err error) time.Duration {
	if se, ok := err.(*retry.StatusError); ok { // the common case, without reflection
		return max(se.After, 0)
	}
	var ra interface{ RetryAfter() time.Duration }
	if errors.As(err, &ra) {
		return max(ra.RetryAfter(), 0)
	}
	return 0
}

// end ends a client's logical request with err (nil: success).
func (r *run) end(cl *client, err error) {
	r.active--
	cl.state = stDone
	if cl.reqDone != nil {
		cl.reqDone(err)
		cl.reqDone = nil
	}
	k := int(cl.attempts)
	for k >= len(r.hist) {
		r.hist = append(r.hist, make([]int64, len(r.hist))...)
	}
	r.hist[k]++
	res := r.res
	res.Finished++
	res.Completion = time.Duration(r.now)
	if cl.failed && r.recovery >= 0 {
		res.Drain = max(res.Drain, time.Duration(r.now-r.recovery))
	}
	if err == nil {
		res.Successes++
		return
	}
	res.GiveUps++
	var re *retry.Error
	switch {
	case errors.As(err, &re) && re.Reason == retry.ErrBudgetExhausted:
		res.GiveUpBudget++
	case errors.As(err, &re) && re.Reason == retry.ErrRetryAfterTooLong:
		res.GiveUpRetryAfter++
	case errors.As(err, &re) && re.Reason == retry.ErrAttemptsExhausted:
		res.GiveUpAttempts++
	case retry.IsCircuitOpen(err):
		res.GiveUpBreaker++
	case errors.Is(err, bulkhead.ErrFull):
		res.GiveUpBulkhead++
	case errors.Is(err, errBadInput):
		res.GiveUpInput++
	default:
		res.GiveUpOther++
	}
}

// capacity is the dependency's capacity now.
func (r *run) capacity() float64 {
	if r.d.RecoveryCapacity > 0 && r.recovery >= 0 && r.now >= r.recovery {
		return r.d.RecoveryCapacity
	}
	return r.d.Capacity
}

// serve decides what the dependency does with a call arriving now: the
// error it returns (nil: success) and when the answer reaches the client.
func (r *run) serve(id int32, cl *client) (error, int64) {
	d := &r.d
	now := r.now
	if d.Contention > 0 {
		conflict := r.anyCall && now-r.lastCall < int64(d.Contention)
		r.anyCall, r.lastCall = true, now
		if conflict {
			return errConflict, now + int64(d.Latency)
		}
		return nil, now + int64(d.Latency)
	}
	if cl.bad {
		return errBadInput, now + int64(d.Latency)
	}
	if now < r.down || d.Outage.has(now) && (d.KindShare == 0 || cl.kindB) {
		return r.unavailable(), now + int64(d.FailLatency)
	}
	resp := now + int64(d.Latency)
	if c := r.capacity(); c > 0 {
		for r.fhead < len(r.fifo) && r.fifo[r.fhead].end <= now {
			r.fhead++
		}
		if r.fhead > 4096 && r.fhead*2 > len(r.fifo) {
			r.fifo = append(r.fifo[:0], r.fifo[r.fhead:]...)
			r.fhead = 0
		}
		limit := d.QueueLimit
		if limit == 0 {
			limit = int(math.Ceil(c))
		}
		if len(r.fifo)-r.fhead >= limit {
			if d.FallOver {
				r.crash()
			} else {
				r.res.Shed++
			}
			return r.unavailable(), now + int64(d.FailLatency)
		}
		end := max(now, r.lastEnd) + int64(float64(time.Second)/c)
		r.lastEnd = end
		r.fifo = append(r.fifo, qent{end: end, client: id, gen: cl.gen})
		resp = end + int64(d.Latency)
	}
	var err error
	if d.ErrorRate > 0 && r.srv.Float64() < d.ErrorRate {
		err = r.unavailable()
	} else if d.SlowRate > 0 && r.srv.Float64() < d.SlowRate {
		resp += int64(d.SlowLatency)
	}
	if r.pat > 0 && resp-now > int64(r.pat) {
		return errAttemptTimeout, now + int64(r.pat)
	}
	return err, resp
}

func (r *run) unavailable() error {
	if r.d.RetryAfter > 0 {
		return &retry.StatusError{StatusCode: 503, Status: "503 Service Unavailable", After: r.d.RetryAfter}
	}
	return errUnavailable
}

// crash brings the dependency down: every queued call fails now.
func (r *run) crash() {
	now := r.now
	r.res.Crashes = append(r.res.Crashes, time.Duration(now))
	r.down = now + int64(r.d.RestartTime)
	at := now + int64(r.d.FailLatency)
	for _, e := range r.fifo[r.fhead:] {
		cl := &r.cs[e.client]
		if cl.gen != e.gen || cl.state != stCall {
			continue
		}
		cl.gen++
		cl.err = r.unavailable()
		r.q.push(mkEvent(at, e.client, evDone, cl.gen))
	}
	r.fifo, r.fhead = r.fifo[:0], 0
	r.lastEnd = now
	r.res.Recoveries = append(r.res.Recoveries, time.Duration(r.down))
}

// bucket returns the time series bucket of now.
func (r *run) bucket() *Bucket {
	i := int(r.now / int64(r.res.Resolution))
	for i >= len(r.res.Series) {
		r.res.Series = append(r.res.Series, Bucket{})
	}
	return &r.res.Series[i]
}

func (r *run) finish() {
	res := r.res
	res.Unfinished = res.Requests - res.Finished
	var total, n int64
	for k, c := range r.hist {
		if c == 0 {
			continue
		}
		total += int64(k) * c
		n += c
		res.AttemptsMax = k
	}
	if n > 0 {
		res.AttemptsMean = float64(total) / float64(n)
		need := int64(math.Ceil(0.99 * float64(n)))
		var acc int64
		for k, c := range r.hist {
			acc += c
			if acc >= need {
				res.AttemptsP99 = k
				break
			}
		}
	}
	res.AttemptsHist = append([]int64(nil), r.hist[:res.AttemptsMax+1]...)
	if r.recovery >= 0 {
		res.Recovery = time.Duration(r.recovery)
		res.HasRecovery = true
	}
	for i := range res.Series {
		res.PeakCalls = max(res.PeakCalls, res.Series[i].Calls)
	}
}
