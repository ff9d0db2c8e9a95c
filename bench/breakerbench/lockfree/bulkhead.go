// Package lockfree is runtime/bulkhead as it was before it became a mutex
// and a list (one atomic word for the slots and the waiters), kept here only
// so that the benchmarks can compare the two around a realistic call.
package lockfree

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// ErrFull is returned by Acquire and Do when no slot could be had: all were
// taken and MaxWait is zero, the wait for one reached MaxWait, or MaxWaiting
// callers were already waiting.
var ErrFull = errors.New("lockfree: full")

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

// ConfigError is returned by New for a Config field with an invalid value.
type ConfigError struct {
	Field  string
	Value  any
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("lockfree: invalid Config.%s %v: %s", e.Field, e.Value, e.Reason)
}

// DefaultMaxConcurrent is the number of slots when Config.MaxConcurrent is zero.
const DefaultMaxConcurrent = 10

const (
	inUseMask = 1<<32 - 1
	oneWaiter = 1 << 32
	// minusOneWaiter subtracts oneWaiter when added: two's complement.
	minusOneWaiter = ^uint64(oneWaiter - 1)
)

// Bulkhead is a concurrency limit with a bounded, first-come-first-served wait.
// Create one with New; the zero value is not usable. A Bulkhead is safe for
// concurrent use by multiple goroutines.
type Bulkhead struct {
	// state holds the slots in use in its low 32 bits and the number of
	// waiting callers in its high 32 bits. While anyone waits, free slots are
	// handed to the first waiter instead of being taken by newcomers.
	state      atomic.Uint64
	size       uint64
	maxWait    time.Duration
	maxWaiting uint64
	rejected   atomic.Uint64

	mu         sync.Mutex // guards the fields below
	head, tail *waiter
	pool       sync.Pool // of *waiter; per Bulkhead, so that waiters never cross synctest bubbles
	// Every waiter waits the same MaxWait, so deadlines come in queue order
	// and one timer, armed for the first waiter's deadline, serves them all.
	timer *time.Timer
	armed bool
	epoch time.Time
}

// waiter is a caller waiting for a slot.
type waiter struct {
	ready      chan bool // receives true with a slot, false when MaxWait is up; buffered
	deadline   time.Duration
	next, prev *waiter
	queued     bool
}

// New returns a Bulkhead with all slots free, or a *ConfigError if c is
// invalid.
func New(c Config) (*Bulkhead, error) {
	switch {
	case c.MaxConcurrent < 0:
		return nil, &ConfigError{"MaxConcurrent", c.MaxConcurrent, "must not be negative"}
	case c.MaxConcurrent > math.MaxInt32:
		return nil, &ConfigError{"MaxConcurrent", c.MaxConcurrent, "must be at most 2147483647"}
	case c.MaxWait < 0:
		return nil, &ConfigError{"MaxWait", c.MaxWait, "must not be negative"}
	case c.MaxWaiting < 0:
		return nil, &ConfigError{"MaxWaiting", c.MaxWaiting, "must not be negative"}
	case c.MaxWaiting > math.MaxInt32:
		return nil, &ConfigError{"MaxWaiting", c.MaxWaiting, "must be at most 2147483647"}
	}
	size := c.MaxConcurrent
	if size == 0 {
		size = DefaultMaxConcurrent
	}
	b := &Bulkhead{size: uint64(size), maxWait: c.MaxWait, maxWaiting: uint64(c.MaxWaiting), epoch: time.Now()}
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
	if b.tryAcquire() {
		return nil
	}
	return b.wait(ctx)
}

// TryAcquire takes a slot if one is free and nobody is waiting for one, and
// reports whether it did. It never waits.
func (b *Bulkhead) TryAcquire() bool {
	if b.tryAcquire() {
		return true
	}
	b.rejected.Add(1)
	return false
}

func (b *Bulkhead) tryAcquire() bool {
	for {
		s := b.state.Load()
		if s >= b.size { // waiters, or every slot taken
			return false
		}
		if b.state.CompareAndSwap(s, s+1) {
			return true
		}
	}
}

// wait is the slow path of Acquire.
func (b *Bulkhead) wait(ctx context.Context) error {
	b.mu.Lock()
	for {
		s := b.state.Load()
		if s < b.size {
			if b.state.CompareAndSwap(s, s+1) {
				b.mu.Unlock()
				return nil
			}
			continue
		}
		if b.maxWait == 0 || s>>32 >= b.maxWaiting {
			b.mu.Unlock()
			b.rejected.Add(1)
			return ErrFull
		}
		// Register as a waiter only while every slot is still taken: a Release
		// racing with this either fails its own compare-and-swap and hands us
		// its slot through the queue, or frees the slot first and makes this
		// compare-and-swap fail.
		if b.state.CompareAndSwap(s, s+oneWaiter) {
			break
		}
	}
	w, _ := b.pool.Get().(*waiter)
	if w == nil {
		w = &waiter{ready: make(chan bool, 1)}
	}
	w.deadline = time.Since(b.epoch) + b.maxWait
	b.push(w)
	if !b.armed {
		b.arm(b.maxWait)
	}
	b.mu.Unlock()

	done := ctx.Done()
	var got bool
	if done == nil {
		got = <-w.ready
	} else {
		select {
		case got = <-w.ready:
		case <-done:
			return b.abandon(w, ctx.Err())
		}
	}
	b.pool.Put(w)
	if !got {
		b.rejected.Add(1)
		return ErrFull
	}
	if err := ctx.Err(); err != nil {
		b.Release()
		return err
	}
	return nil
}

// arm sets the timer to go off after d. Called with mu held.
func (b *Bulkhead) arm(d time.Duration) {
	if b.timer == nil {
		b.timer = time.AfterFunc(d, b.expire)
	} else {
		b.timer.Reset(d)
	}
	b.armed = true
}

// expire turns away the waiters whose MaxWait is up and re-arms the timer for
// the next one.
func (b *Bulkhead) expire() {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Since(b.epoch)
	for w := b.head; w != nil && w.deadline <= now; w = b.head {
		b.remove(w)
		b.state.Add(minusOneWaiter)
		w.ready <- false
	}
	b.armed = false
	if b.head != nil {
		b.arm(b.head.deadline - now)
	}
}

// abandon takes w out of the queue after its context ended the wait. If a
// slot was handed to it in the meantime, the slot is given back.
func (b *Bulkhead) abandon(w *waiter, err error) error {
	b.mu.Lock()
	answered := !w.queued
	if !answered {
		b.remove(w)
		b.state.Add(minusOneWaiter)
	}
	b.mu.Unlock()
	if answered && <-w.ready { // sent under mu before the waiter was dequeued
		b.Release()
	}
	b.pool.Put(w)
	return err
}

// Release gives back a slot taken by Acquire or TryAcquire, to the first
// waiting caller if there is one. Releasing a slot that was not taken is a
// programming error and panics.
func (b *Bulkhead) Release() {
	s := b.state.Add(^uint64(0))
	if s&inUseMask == inUseMask {
		// No slot was in use: the decrement borrowed from the waiter count.
		b.state.Add(1)
		panic("lockfree: Release without a matching Acquire")
	}
	if s>>32 != 0 {
		b.handOff()
	}
}

// handOff gives free slots to the first waiters, in order. It runs after a
// release that saw waiters; since waiters register only under mu and only
// while every slot is taken, after handOff either nobody waits or every slot
// is taken.
func (b *Bulkhead) handOff() {
	b.mu.Lock()
	for b.head != nil {
		s := b.state.Load()
		if s&inUseMask >= b.size {
			break // another release's slot went to a waiter already
		}
		// Take the slot and one waiter off the count, for the first waiter.
		if !b.state.CompareAndSwap(s, s+1+minusOneWaiter) {
			continue
		}
		w := b.head
		b.remove(w)
		w.ready <- true
	}
	b.mu.Unlock()
}

func (b *Bulkhead) push(w *waiter) {
	w.queued, w.prev, w.next = true, b.tail, nil
	if b.tail == nil {
		b.head = w
	} else {
		b.tail.next = w
	}
	b.tail = w
}

func (b *Bulkhead) remove(w *waiter) {
	if w.prev == nil {
		b.head = w.next
	} else {
		w.prev.next = w.next
	}
	if w.next == nil {
		b.tail = w.prev
	} else {
		w.next.prev = w.prev
	}
	w.queued, w.prev, w.next = false, nil, nil
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
func (b *Bulkhead) InUse() int { return int(b.state.Load() & inUseMask) }

// Waiting returns the number of callers waiting for a slot.
func (b *Bulkhead) Waiting() int { return int(b.state.Load() >> 32) }

// Rejected returns the number of acquisitions that failed with ErrFull (or a
// TryAcquire that returned false) since the Bulkhead was created.
func (b *Bulkhead) Rejected() uint64 { return b.rejected.Load() }

// Size returns the number of slots, Config.MaxConcurrent.
func (b *Bulkhead) Size() int { return int(b.size) }
