// Package stategetter has methods that answer a question about their
// receiver's state (StateGetterFact), and near misses.
package stategetter

import (
	"context"
	"sync"
)

type backoff struct {
	ctx   context.Context
	tries int
	max   int
}

func (b *backoff) Ongoing() bool { return b.ctx.Err() == nil && b.tries < b.max } // want Ongoing:"state getter"

type listener struct {
	mu     sync.Mutex
	closed bool
}

func (l *listener) isClosed() bool { // want isClosed:"state getter"
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// The near misses: one that changes the state it reads, one asked with a
// parameter, one that answers with a count, a function.
func (b *backoff) Next() bool { // want Next:"fields\\(writes model/stategetter.backoff.tries\\)"
	b.tries++
	return b.tries < b.max
}

func (b *backoff) Allows(n int) bool { return n < b.max }

func (b *backoff) Left() int { return b.max - b.tries }

func ready(b *backoff) bool { return b.tries == 0 }

// A state of an enum, read under the lock: a question about shared state
// too.
type phase int

const (
	connecting phase = iota
	closing
)

type conn struct {
	mu sync.Mutex
	ph phase
}

func (c *conn) phase() phase { // want phase:"state getter"
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ph
}
