// Package bulkhead limits how many calls to one dependency are in flight at
// once, so that a slow dependency ties up a bounded number of goroutines,
// connections and memory instead of all of them.
//
// A [Bulkhead] has MaxConcurrent slots. A call takes a slot with
// [Bulkhead.Acquire] (or [Bulkhead.TryAcquire]) and gives it back with
// [Bulkhead.Release]; [Bulkhead.Do] does both around a function. When every
// slot is taken, Acquire fails at once with [ErrFull], or waits up to
// [Config.MaxWait] for a slot, first come first served.
//
// A Bulkhead is a mutex, a count and a first-come-first-served list of
// waiters, like golang.org/x/sync/semaphore: taking a free slot and giving
// it back allocate nothing; a caller that has to wait allocates its place in
// the queue and a timer. (A lock-free version was measured against this one
// around a loopback HTTP call: the difference was lost in the call's own
// cost, so the simpler version stays; see docs/runtime/bulkhead.md.)
//
// In a composed call path the bulkhead sits inside the retry: a slot is held
// for one attempt, not while a retry sleeps between attempts.
package bulkhead

import (
	"container/list"
	"context"
	"errors"
	"github.com/resilint/resilint/runtime/internal/config"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// ErrFull is returned by Acquire and Do when no slot could be had: all were
// taken and MaxWait is zero, the wait for one reached MaxWait, or MaxWaiting
// callers were already waiting.
var ErrFull = errors.New("bulkhead: full")

// Config configures a Bulkhead. The zero value of every field selects the
// documented default.
type Config struct {
	// MaxConcurrent is the number of slots: how many calls may be in flight at
	// once. Zero means 10. By Little's law the concurrency a dependency needs is
	// its request rate times its latency (100 requests/s at 100ms is 10); size
	// the bulkhead a little above the normal need so that only a slowdown fills
	// it. At most 1<<31-1.
	MaxConcurrent int

	// MaxWait is how long Acquire waits for a slot when all are taken. Zero
	// means no wait: fail fast with ErrFull. Waiting callers are served in the
	// order they came.
	MaxWait time.Duration

	// MaxWaiting bounds the number of callers waiting at once; a caller that
	// would exceed it gets ErrFull at once. Zero means no bound (waits are still
	// bounded by MaxWait). Unused when MaxWait is zero.
	MaxWaiting int
}

// ConfigError reports a configuration field with an invalid value: New
// return it for an invalid configuration (use errors.As). Every runtime
// package defines its ConfigError alike.
type ConfigError struct {
	// Field names the field: its name for a field of Config, qualified by
	// its struct otherwise, "MaxWait".
	Field string
	// Value is the offending value, nil where printing it would not help.
	Value any
	// Reason says what a valid value is.
	Reason string
	// Err, if not nil, is the underlying error (a part's own validation).
	Err error
}

// Error reads like "bulkhead: invalid Config.Field value: reason".
func (e *ConfigError) Error() string {
	return config.Text("bulkhead", e.Field, e.Value, e.Reason, e.Err)
}

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }

// DefaultMaxConcurrent is the number of slots when Config.MaxConcurrent is zero.
const DefaultMaxConcurrent = 10

// Bulkhead is a concurrency limit with a bounded, first-come-first-served wait.
// Create one with New; the zero value is not usable. A Bulkhead is safe for
// concurrent use by multiple goroutines.
type Bulkhead struct {
	size       int
	maxWait    time.Duration
	maxWaiting int
	rejected   atomic.Uint64

	mu      sync.Mutex // guards the fields below
	inUse   int
	waiters list.List // of *waiter, first come first
}

// waiter is a caller waiting for a slot; ready is closed when it is given
// one.
type waiter struct {
	ready chan struct{}
}

// New returns a Bulkhead with all slots free, or a *ConfigError if c is
// invalid.
func New(c Config) (*Bulkhead, error) {
	switch {
	case c.MaxConcurrent < 0:
		return nil, &ConfigError{Field: "MaxConcurrent", Value: c.MaxConcurrent, Reason: "must not be negative"}
	case c.MaxConcurrent > math.MaxInt32:
		return nil, &ConfigError{Field: "MaxConcurrent", Value: c.MaxConcurrent, Reason: "must be at most 2147483647"}
	case c.MaxWait < 0:
		return nil, &ConfigError{Field: "MaxWait", Value: c.MaxWait, Reason: "must not be negative"}
	case c.MaxWaiting < 0:
		return nil, &ConfigError{Field: "MaxWaiting", Value: c.MaxWaiting, Reason: "must not be negative"}
	case c.MaxWaiting > math.MaxInt32:
		return nil, &ConfigError{Field: "MaxWaiting", Value: c.MaxWaiting, Reason: "must be at most 2147483647"}
	}
	b := &Bulkhead{size: c.MaxConcurrent, maxWait: c.MaxWait, maxWaiting: c.MaxWaiting}
	if b.size == 0 {
		b.size = DefaultMaxConcurrent
	}
	if b.maxWaiting == 0 {
		b.maxWaiting = math.MaxInt32
	}
	return b, nil
}

// Acquire takes a slot, waiting up to Config.MaxWait for one. It returns nil
// with the slot taken, ErrFull, or ctx.Err() if ctx is done first (or was
// already done: a done ctx never takes a slot). Each successful Acquire must be
// followed by one Release.
func (b *Bulkhead) Acquire(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	if b.inUse < b.size && b.waiters.Len() == 0 {
		b.inUse++
		b.mu.Unlock()
		return nil
	}
	if b.maxWait == 0 || b.waiters.Len() >= b.maxWaiting {
		b.mu.Unlock()
		b.rejected.Add(1)
		return ErrFull
	}
	w := &waiter{ready: make(chan struct{})}
	e := b.waiters.PushBack(w)
	b.mu.Unlock()

	t := time.NewTimer(b.maxWait)
	defer t.Stop()
	var err error
	select {
	case <-w.ready:
		if err := ctx.Err(); err != nil {
			b.Release()
			return err
		}
		return nil
	case <-t.C:
		err = ErrFull
	case <-ctx.Done():
		err = ctx.Err()
	}
	b.mu.Lock()
	select {
	case <-w.ready:
		// Given a slot just as the wait ended: give it back.
		b.mu.Unlock()
		b.Release()
	default:
		b.waiters.Remove(e)
		// Leaving the queue may let the callers behind have a free slot.
		b.handOff()
		b.mu.Unlock()
	}
	if err == ErrFull {
		b.rejected.Add(1)
	}
	return err
}

// TryAcquire takes a slot if one is free and nobody is waiting for one, and
// reports whether it did. It never waits.
func (b *Bulkhead) TryAcquire() bool {
	b.mu.Lock()
	ok := b.inUse < b.size && b.waiters.Len() == 0
	if ok {
		b.inUse++
	}
	b.mu.Unlock()
	if !ok {
		b.rejected.Add(1)
	}
	return ok
}

// Release gives back a slot taken by Acquire or TryAcquire, to the first
// waiting caller if there is one. Releasing a slot that was not taken is a
// programming error and panics.
func (b *Bulkhead) Release() {
	b.mu.Lock()
	if b.inUse == 0 {
		b.mu.Unlock()
		panic("bulkhead: Release without a matching Acquire")
	}
	b.inUse--
	b.handOff()
	b.mu.Unlock()
}

// handOff gives free slots to the first waiters, in order. Called with mu
// held.
func (b *Bulkhead) handOff() {
	for b.inUse < b.size {
		e := b.waiters.Front()
		if e == nil {
			return
		}
		b.waiters.Remove(e)
		b.inUse++
		close(e.Value.(*waiter).ready)
	}
}

// Do runs op with a slot taken, giving it back when op returns or panics. If
// no slot can be had it returns the error from Acquire without calling op.
func (b *Bulkhead) Do(ctx context.Context, op func(context.Context) error) error {
	if err := b.Acquire(ctx); err != nil {
		return err
	}
	defer b.Release()
	return op(ctx)
}

// InUse returns the number of slots taken.
func (b *Bulkhead) InUse() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.inUse
}

// Waiting returns the number of callers waiting for a slot.
func (b *Bulkhead) Waiting() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.waiters.Len()
}

// Rejected returns the number of acquisitions that failed with ErrFull (or a
// TryAcquire that returned false) since the Bulkhead was created.
func (b *Bulkhead) Rejected() uint64 { return b.rejected.Load() }

// Size returns the number of slots, Config.MaxConcurrent.
func (b *Bulkhead) Size() int { return b.size }
