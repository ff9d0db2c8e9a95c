// Package admission holds the functions whose result a limiter decides
// (fact "admits") and near misses whose result it does not.
package admission

import (
	"sync/atomic"

	"golang.org/x/time/rate"

	"modellayers/admission/admit"
)

type limiter struct{ rl *rate.Limiter }

// allow asks a rate limiter.
func (l *limiter) allow() bool { return l.rl.Allow() } // want allow:"admits"

type gate struct {
	slots    chan struct{}
	inflight atomic.Int64
	served   int64
	max      int64
	pool     *admit.Pool
}

// acquire takes a slot without waiting.
func (g *gate) acquire() bool { // want acquire:"admits"
	select {
	case g.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// enter counts what is in flight and reads the sum.
func (g *gate) enter() bool { // want enter:"admits"
	return g.inflight.Add(1) <= g.max
}

// enterOld does the same with the function form.
func (g *gate) enterOld() bool { // want enterOld:"admits"
	if atomic.AddInt64(&g.served, 1) > g.max {
		atomic.AddInt64(&g.served, -1)
		return false
	}
	return true
}

// viaPool asks another package's pool, by its fact.
func (g *gate) viaPool() bool { return g.pool.Enter() } // want viaPool:"admits"

// viaAcquire spreads the fact from a function of this package.
func (g *gate) viaAcquire() (ok bool) { // want viaAcquire:"admits"
	ok = g.acquire()
	return ok
}

// Near misses.

// count adds to a metric whose sum nobody reads: no admission.
func (g *gate) count() bool {
	g.inflight.Add(1)
	return g.max > 0
}

// wait blocks on a send: it takes a slot, but waits for it; its result
// says nothing of load.
func (g *gate) wait() bool {
	g.slots <- struct{}{}
	return true
}

// ready reports a state, not a load.
func (g *gate) ready() bool { return g.slots != nil }
