package retry

import (
	"context"
	"encoding/hex"
	"math/rand/v2"
	"sync"
	"time"
)

// Attempt identifies one call of the operation inside one call of [Do].
type Attempt struct {
	// RequestID identifies the logical request: the same for every attempt
	// of one call of Do, different for every call (32 hex digits, 128
	// random bits). Use it in logs and as an idempotency key.
	RequestID string
	// Number is the attempt's number, from 1 (the first attempt) to
	// MaxAttempts.
	Number int
}

// AttemptFromContext returns the attempt that ctx belongs to, if ctx is (or
// is derived from) the context [Do] passed to the operation, and the
// operation has not returned yet.
//
// The request ID is drawn the first time it is asked for in a call of Do,
// so a call whose operation never asks costs nothing.
func AttemptFromContext(ctx context.Context) (Attempt, bool) {
	c, ok := ctx.Value(attemptKey{}).(*callCtx)
	if !ok {
		return Attempt{}, false
	}
	return c.attempt()
}

type attemptKey struct{}

// callCtx is the context Do passes to the operation. It is the caller's
// context plus the attempt's identity, and it comes from a pool so that a
// successful first attempt allocates nothing.
//
// Pooling means a callCtx is reused by a later call of Do once this one
// returns; that is why the operation may use its context only until it
// returns. A context kept longer must not break memory safety, though, so
// every field is read and written under mu: a stale holder sees a context
// that is done (between calls) or, once reused, another call's context. It
// never sees a torn interface value, and the race detector stays quiet.
type callCtx struct {
	mu       sync.Mutex
	parent   context.Context
	number   int
	live     bool
	idHi     uint64 // request ID, drawn lazily; idSet says whether it is
	idLo     uint64
	idSet    bool
	idString string
}

var callPool = sync.Pool{New: func() any { return new(callCtx) }}

func acquire(parent context.Context) *callCtx {
	c := callPool.Get().(*callCtx)
	c.mu.Lock()
	c.parent = parent
	c.number = 1
	c.live = true
	c.mu.Unlock()
	return c
}

func (c *callCtx) setNumber(n int) {
	c.mu.Lock()
	c.number = n
	c.mu.Unlock()
}

func release(c *callCtx) {
	c.mu.Lock()
	c.parent = nil
	c.live = false
	c.idSet = false
	c.idString = ""
	c.mu.Unlock()
	callPool.Put(c)
}

func (c *callCtx) attempt() (Attempt, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live {
		return Attempt{}, false
	}
	if !c.idSet {
		c.idHi, c.idLo, c.idSet = rand.Uint64(), rand.Uint64(), true
		var b [16]byte
		for i := range 8 {
			b[i] = byte(c.idHi >> (56 - 8*i))
			b[8+i] = byte(c.idLo >> (56 - 8*i))
		}
		c.idString = hex.EncodeToString(b[:])
	}
	return Attempt{RequestID: c.idString, Number: c.number}, true
}

// ctx returns the caller's context, or a done context once the call is over.
func (c *callCtx) ctx() context.Context {
	c.mu.Lock()
	p := c.parent
	c.mu.Unlock()
	if p == nil {
		return finished
	}
	return p
}

func (c *callCtx) Deadline() (time.Time, bool) { return c.ctx().Deadline() }
func (c *callCtx) Done() <-chan struct{}       { return c.ctx().Done() }
func (c *callCtx) Err() error                  { return c.ctx().Err() }

func (c *callCtx) Value(key any) any {
	if _, ok := key.(attemptKey); ok {
		return c
	}
	return c.ctx().Value(key)
}

func (c *callCtx) String() string { return "retry.attemptContext" }

// finished is what a callCtx delegates to after its call of Do returned.
var finished = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()
