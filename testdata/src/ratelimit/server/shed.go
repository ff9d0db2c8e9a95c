package server

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"

	"modellayers/admission/admit"
)

// A 503 says when to come back only if the server refused for a load it
// measures (a limiter, a semaphore, a count of requests in flight): that
// limiter knows when it has room again. These shed load.

type shedder struct {
	rl       *rate.Limiter
	sem      *semaphore.Weighted
	slots    chan struct{}
	inflight atomic.Int64
	total    int64
	max      int64
	pool     *admit.Pool
}

func (s *shedder) tryRate(w http.ResponseWriter, r *http.Request) {
	if err := s.rl.Wait(r.Context()); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable) // want `503 Service Unavailable written without a Retry-After header on this path: clients retry at once and keep an overloaded service down`
		return
	}
}

func (s *shedder) trySemaphore(w http.ResponseWriter, r *http.Request) {
	if !s.sem.TryAcquire(1) {
		http.Error(w, "busy", http.StatusServiceUnavailable) // want `503 Service Unavailable written without a Retry-After`
		return
	}
	defer s.sem.Release(1)
}

func (s *shedder) trySlot(w http.ResponseWriter, r *http.Request) {
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	default:
		w.WriteHeader(http.StatusServiceUnavailable) // want `503 Service Unavailable written without a Retry-After`
		return
	}
}

func (s *shedder) countInFlight(w http.ResponseWriter, r *http.Request) {
	defer s.inflight.Add(-1)
	if s.inflight.Add(1) > s.max {
		w.WriteHeader(http.StatusServiceUnavailable) // want `503 Service Unavailable written without a Retry-After`
		return
	}
}

func (s *shedder) countWithFunc(w http.ResponseWriter, r *http.Request) {
	n := atomic.AddInt64(&s.total, 1)
	if n > s.max {
		w.WriteHeader(http.StatusServiceUnavailable) // want `503 Service Unavailable written without a Retry-After`
	}
}

// The pool of another package admits, by its fact.
func (s *shedder) tryPool(w http.ResponseWriter, r *http.Request) {
	if ok := s.pool.Enter(); !ok {
		w.WriteHeader(http.StatusServiceUnavailable) // want `503 Service Unavailable written without a Retry-After`
		return
	}
	defer s.pool.Give()
}

// acquire takes a slot without waiting, in a helper of this package.
func (s *shedder) acquire() bool {
	select {
	case s.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

func (s *shedder) viaAcquire(w http.ResponseWriter, r *http.Request) {
	if !s.acquire() {
		w.WriteHeader(http.StatusServiceUnavailable) // want `503 Service Unavailable written without a Retry-After`
		return
	}
}

// --- near misses: 503s of a state, not of a load ---

var errNotReady = errors.New("not ready")

type probe struct {
	ready    atomic.Bool
	state    atomic.Int32
	requests atomic.Int64
	started  chan struct{}
	slots    chan struct{}
	pool     *admit.Pool
}

// Not ready yet: nothing knows when it will be.
func (p *probe) readiness(w http.ResponseWriter, r *http.Request) {
	if !p.ready.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
}

// Stopping, by a state read.
func (p *probe) stopping(w http.ResponseWriter, r *http.Request) {
	switch p.state.Load() {
	case 2:
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// A dependency failed: the server cannot know when it comes back.
func (p *probe) dependency(w http.ResponseWriter, r *http.Request) {
	if err := lookup(r.Context()); err != nil {
		if errors.Is(err, errNotReady) {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func lookup(ctx context.Context) error { return ctx.Err() }

// A count kept for metrics decides nothing; the 503 follows a state.
func (p *probe) counted(w http.ResponseWriter, r *http.Request) {
	p.requests.Add(1)
	defer p.requests.Add(-1)
	if !p.ready.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// A receive that does not wait asks whether start-up is over.
func (p *probe) started503(w http.ResponseWriter, r *http.Request) {
	select {
	case <-p.started:
	default:
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// The slot was taken: the 503 is on the other path.
func (p *probe) tookSlot(w http.ResponseWriter, r *http.Request) {
	select {
	case p.slots <- struct{}{}:
		if !p.ready.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	default:
		w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After`
	}
}

// The pool's state, not its load.
func (p *probe) poolReady(w http.ResponseWriter, r *http.Request) {
	if !p.pool.Ready() {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}
