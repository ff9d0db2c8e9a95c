// Package ongoing is a backoff whose Ongoing method says whether to go on:
// it asks the context it was built with and counts the waits.
package ongoing

import (
	"context"
	"math/rand/v2"
	"time"
)

type Backoff struct {
	ctx   context.Context
	tries int
	max   int
	next  time.Duration
}

func New(ctx context.Context, max int) *Backoff {
	return &Backoff{ctx: ctx, max: max, next: 100 * time.Millisecond}
}

// Ongoing reads the state of b and changes none of it.
func (b *Backoff) Ongoing() bool {
	return b.ctx.Err() == nil && (b.max == 0 || b.tries < b.max)
}

// Wait waits a jittered delay, or until the context is done.
func (b *Backoff) Wait() {
	b.tries++
	d := rand.N(b.next)
	b.next = min(2*b.next, time.Minute)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-b.ctx.Done():
	case <-t.C:
	}
}

// Gate is asked about a name: a question with a parameter is no state
// getter.
type Gate struct{ open map[string]bool }

func (g *Gate) Open(name string) bool { return g.open[name] }
