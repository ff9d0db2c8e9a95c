// Package admit keeps a pool of slots for handlers of other packages.
package admit

import "golang.org/x/sync/semaphore"

// Pool bounds the requests served at once.
type Pool struct{ sem *semaphore.Weighted }

// Take takes a slot if one is free.
func (p *Pool) Take() bool { return p.sem.TryAcquire(1) } // want Take:"admits"

// Give gives a slot back.
func (p *Pool) Give() { p.sem.Release(1) }

// Enter takes a slot through Take: the fact spreads to it.
func (p *Pool) Enter() bool { return p.Take() } // want Enter:"admits"

// Ready reports a state, not a load: no fact.
func (p *Pool) Ready() bool { return p.sem != nil }
