package retry

import (
	"context"
	"encoding/hex"
	"math/rand/v2"
	"sync/atomic"
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
// is derived from) a context [Do] passed to the operation. The context
// keeps its identity for as long as anything holds it, also after the
// operation returned.
//
// The request ID is drawn the first time it is asked for in a call of Do,
// so a call whose operation never asks does not pay for it.
func AttemptFromContext(ctx context.Context) (Attempt, bool) {
	c, ok := ctx.Value(attemptKey{}).(*attemptCtx)
	if !ok {
		return Attempt{}, false
	}
	return Attempt{RequestID: c.requestID(), Number: c.number}, true
}

type attemptKey struct{}

// attemptCtx is the context Do passes to one attempt of the operation: the
// caller's context (or the attempt's timeout derived from it) plus the
// attempt's identity. Each attempt gets a new one, never reused, so a
// context kept by a goroutine that outlives the operation stays what it
// was: its own call's values, cancellation and identity.
type attemptCtx struct {
	context.Context
	number int
	// first is the call's first attempt, which holds the request ID; nil
	// for the first attempt itself.
	first *attemptCtx
	// id is the request ID once drawn (first attempt only).
	id atomic.Pointer[string]
}

func (c *attemptCtx) Value(key any) any {
	if _, ok := key.(attemptKey); ok {
		return c
	}
	return c.Context.Value(key)
}

func (c *attemptCtx) String() string { return "retry.attemptContext" }

// requestID returns the call's request ID, drawing it on first use. Two
// goroutines asking at once agree on one ID.
func (c *attemptCtx) requestID() string {
	f := c
	if c.first != nil {
		f = c.first
	}
	if id := f.id.Load(); id != nil {
		return *id
	}
	var b [16]byte
	hi, lo := rand.Uint64(), rand.Uint64()
	for i := range 8 {
		b[i] = byte(hi >> (56 - 8*i))
		b[8+i] = byte(lo >> (56 - 8*i))
	}
	s := hex.EncodeToString(b[:])
	if f.id.CompareAndSwap(nil, &s) {
		return s
	}
	return *f.id.Load()
}
