package ratelimit

import (
	"context"
	"time"
)

// Store keeps the window counts of every key where all instances of a
// service share them, and decides atomically. runtime/ratelimit/redisstore
// is one.
type Store interface {
	// Add decides whether n more requests for key fit at time now under
	// limit per window, and counts them in now's window if they do, as one
	// atomic step per key. Windows are aligned on the Unix epoch and
	// measured in whole microseconds: now's window is number
	// floor(now/window), elapsed is now minus its start, and the requests
	// fit when
	//
	//	prev×(window−elapsed) + (cur+n)×window ≤ limit×window
	//
	// computed in float64 in that order, prev and cur being the counts of
	// the window before now's and of now's. Counts of a window older than
	// the previous one are zero. Add returns the counts after the decision.
	Add(ctx context.Context, key string, now time.Time, window time.Duration, limit, n int) (Counts, error)
}

// Counts is what a [Store] returns: its decision and a key's counts after
// it.
type Counts struct {
	// Allowed reports whether the requests were admitted and counted.
	Allowed bool
	// Previous is the count of the window before now's.
	Previous int64
	// Current is the count of now's window, including the requests if they
	// were admitted.
	Current int64
}

// Limiter limits the rate of requests per key with a sliding window
// counter. Create one with [New]; the zero value is not usable. A Limiter is
// safe for concurrent use.
//
// Without a [Store], its counts live in memory, in a fixed number of shards,
// found by a seeded 64-bit hash of the key (the key itself is not kept; two
// keys with one hash, a chance of about 3e-8 for a million keys, would share
// one count, so neither could get more than the limit). It tracks at most
// Config.MaxKeys keys (split evenly between the shards);
// a key whose both windows are over is dropped by the first call that
// reaches its shard in a later window, so idle keys cost nothing after two
// windows. When a shard is full, a key it does not hold is counted in the
// shard's overflow counter, which every such key of the shard shares under
// the same limit: memory stays bounded, no tracked key loses its count (so
// none can get more than its limit by making the store forget it), and the
// cost of a flood of distinct keys falls on the keys that arrive while the
// store is full, which are limited together until space frees up.
type Limiter struct {
	s        *settings
	local    *memoryStore // nil with a Store
	fallback *memoryStore // nil without a Store, or when failing closed

	start      time.Time // when New was called, with its monotonic reading
	startMicro int64     // start in µs since the epoch
}

// New returns a Limiter for cfg, or a *ConfigError naming the first invalid
// field.
func New(cfg Config) (*Limiter, error) {
	s, err := cfg.settings()
	if err != nil {
		return nil, err
	}
	l := &Limiter{s: s, start: time.Now()}
	l.startMicro = l.start.UnixMicro()
	switch {
	case s.Store == nil:
		l.local = newMemoryStore(s.Limit, s.windowMicros, s.MaxKeys, s.Shards)
	case s.OnStoreError == StoreFailureOpen:
		l.fallback = newMemoryStore(s.FallbackLimit, s.windowMicros, s.MaxKeys, s.Shards)
	}
	return l, nil
}

// Limit returns the number of requests a key may make per window.
func (l *Limiter) Limit() int { return l.s.Limit }

// Window returns the window.
func (l *Limiter) Window() time.Duration { return l.s.Window }

// Allow is AllowN(ctx, key, now, 1), now from the Limiter's clock.
//
// Without a Clock and without a Store, now is the wall clock's time when New
// was called plus the monotonic time since: windows that no other process
// shares need not follow the wall clock's steps, and one reading of the
// monotonic clock costs about half of time.Now, which reads both clocks.
func (l *Limiter) Allow(ctx context.Context, key string) (Decision, error) {
	if l.s.Clock != nil {
		return l.AllowN(ctx, key, l.s.Clock.Now(), 1)
	}
	if l.local != nil {
		return l.local.allow(key, l.startMicro+int64(time.Since(l.start)/time.Microsecond), 1), nil
	}
	return l.remote(ctx, key, time.Now(), 1)
}

// AllowN decides whether n requests of key may happen at time t, and
// counts them if so. n = 0 asks without counting. The error is nil except
// for a negative n ([ErrNegativeCount]), a store failure while failing
// closed (wrapping [ErrStoreUnavailable], with a refusal), and ctx done
// while waiting for the store (ctx.Err(), with a refusal). While failing
// open, a store failure gives the fallback limiter's decision
// ([Decision.Fallback]) and a nil error.
func (l *Limiter) AllowN(ctx context.Context, key string, t time.Time, n int) (Decision, error) {
	if n < 0 {
		return Decision{limit: int64(l.s.Limit), window: l.s.windowMicros}, ErrNegativeCount
	}
	if l.local != nil {
		return l.local.allow(key, t.UnixMicro(), int64(n)), nil
	}
	return l.remote(ctx, key, t, n)
}

type addResult struct {
	c   Counts
	err error
}

// remote asks the Store, within StoreTimeout, whatever the Store does with
// its context.
func (l *Limiter) remote(ctx context.Context, key string, t time.Time, n int) (Decision, error) {
	sctx, cancel := context.WithTimeout(ctx, l.s.StoreTimeout)
	defer cancel()
	ch := make(chan addResult, 1)
	go func() {
		c, err := l.s.Store.Add(sctx, key, t, l.s.Window, l.s.Limit, n)
		ch <- addResult{c, err}
	}()
	var res addResult
	select {
	case res = <-ch:
	case <-sctx.Done():
		res.err = sctx.Err()
	}
	_, elapsed := floorDiv(t.UnixMicro(), l.s.windowMicros)
	if res.err == nil {
		return Decision{
			Allowed: res.c.Allowed,
			limit:   int64(l.s.Limit), n: int64(n),
			prev: res.c.Previous, cur: res.c.Current,
			elapsed: elapsed, window: l.s.windowMicros,
		}, nil
	}
	refused := Decision{limit: int64(l.s.Limit), n: int64(n), elapsed: elapsed, window: l.s.windowMicros}
	if err := ctx.Err(); err != nil {
		return refused, err
	}
	if l.s.StoreErrorHook != nil {
		l.s.StoreErrorHook(res.err)
	}
	if l.fallback == nil {
		return refused, &storeError{res.err}
	}
	d := l.fallback.allow(key, t.UnixMicro(), int64(n))
	d.fallback = true
	return d, nil
}
