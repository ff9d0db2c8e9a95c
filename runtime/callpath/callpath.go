package callpath

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/bulkhead"
	"github.com/resilint/resilint/runtime/deadline"
	"github.com/resilint/resilint/runtime/retry"
)

// Config names the parts of a [Path]. Its fields are listed in the order the
// parts sit on the path, outermost first, and every one is optional: the zero
// value of a field leaves its part off the path, so the zero Config makes a
// Path that calls the operation once, as it is.
type Config struct {
	// Timeout bounds the whole call: every attempt, every delay between
	// attempts, and the fallback. The context passed down the path ends
	// Timeout after the call starts, or at the caller's deadline if that is
	// sooner. Zero means no timeout of the Path's own (the caller's deadline
	// still applies). Negative is invalid.
	Timeout time.Duration

	// FallbackReserve is the part of the total time kept back for the
	// fallback, on calls made with one: the rest of the path runs under a
	// deadline FallbackReserve before the total deadline (Timeout, or the
	// caller's deadline if sooner), so that a fallback called because that
	// deadline passed still has FallbackReserve to do its work in. Zero keeps
	// nothing back: a fallback called after a timeout then gets a context
	// that is already done, which suits a fallback that answers from memory
	// but not one that makes a call. Unused on calls without a fallback or
	// without any deadline. Negative is invalid, as is a reserve of Timeout
	// or more.
	FallbackReserve time.Duration

	// Breaker, if not nil, is the circuit breaker of the dependency, shared
	// with everything else that calls it. It sees each call once, whatever
	// the retry does inside it: one outcome per logical request. While it is
	// open, a call fails at once with breaker.ErrOpen (breaker.ErrTooManyTrials
	// while half-open and all trials are taken) and no attempt is made. See
	// [BreakerClassify] for its Config.Classify.
	Breaker *breaker.Breaker

	// Retry, if not nil, is the retry policy; its attempts run inside the
	// breaker, each with its own bulkhead slot. Nil means no retry — unlike
	// retry.Do, where a nil policy means the default one: use
	// &retry.Policy{} for that. Its PerAttemptTimeout must be zero; set
	// AttemptTimeout instead, which sits inside the bulkhead. New validates
	// the policy and keeps a copy: changing it afterwards does not change
	// the Path (its Budget, a pointer, stays shared, as intended).
	Retry *retry.Policy

	// Bulkhead, if not nil, is the concurrency limit of the dependency. Each
	// attempt takes a slot (waiting up to the bulkhead's MaxWait for one)
	// and gives it back as soon as it returns, before the retry's delay. A
	// full bulkhead fails the attempt with bulkhead.ErrFull, which the retry
	// retries after its delay like any other transient failure.
	Bulkhead *bulkhead.Bulkhead

	// AttemptTimeout, if positive, bounds each attempt from the moment it
	// has its bulkhead slot: the operation gets a context that ends
	// AttemptTimeout later, or at the total deadline if that is sooner. Zero
	// means no per-attempt timeout. Negative is invalid, and so is a value
	// that cannot fit: when Timeout is set, AttemptTimeout times the retry's
	// MaxAttempts (1 without a retry) must not exceed Timeout −
	// FallbackReserve, or the last attempts would be cut short by the total
	// deadline.
	AttemptTimeout time.Duration
}

// Path is a call path built by [New] from a [Config]. Send calls down it with
// [Execute], [ExecuteWithFallback], [Path.Do] or [Path.DoWithFallback].
//
// The zero Path, like a nil *Path, has no parts: it calls the operation once
// with the caller's context. A Path is never modified after New and is safe
// for concurrent use; share one per dependency.
type Path struct {
	timeout        time.Duration
	reserve        time.Duration
	breaker        *breaker.Breaker
	retry          *retry.Policy // a copy; nil: no retry
	bulkhead       *bulkhead.Bulkhead
	attemptTimeout time.Duration
}

var zeroPath Path

// New returns a Path made of the parts in c, or a [*ConfigError] naming the
// first field with an invalid value.
func New(c Config) (*Path, error) {
	switch {
	case c.Timeout < 0:
		return nil, &ConfigError{Field: "Timeout", Value: c.Timeout, Reason: "must not be negative"}
	case c.FallbackReserve < 0:
		return nil, &ConfigError{Field: "FallbackReserve", Value: c.FallbackReserve, Reason: "must not be negative"}
	case c.Timeout > 0 && c.FallbackReserve >= c.Timeout:
		return nil, &ConfigError{Field: "FallbackReserve", Value: c.FallbackReserve,
			Reason: "must be below Timeout " + c.Timeout.String() + " (no time would be left for the call itself)"}
	case c.AttemptTimeout < 0:
		return nil, &ConfigError{Field: "AttemptTimeout", Value: c.AttemptTimeout, Reason: "must not be negative"}
	}
	p := &Path{
		timeout:        c.Timeout,
		reserve:        c.FallbackReserve,
		breaker:        c.Breaker,
		bulkhead:       c.Bulkhead,
		attemptTimeout: c.AttemptTimeout,
	}
	attempts := 1
	if c.Retry != nil {
		if err := c.Retry.Validate(); err != nil {
			return nil, &ConfigError{Field: "Retry", Reason: "is not a valid policy", Err: err}
		}
		if c.Retry.PerAttemptTimeout != 0 {
			return nil, &ConfigError{Field: "Retry",
				Reason: "has a PerAttemptTimeout; set Config.AttemptTimeout instead, which applies inside the bulkhead"}
		}
		r := *c.Retry
		p.retry = &r
		attempts = r.MaxAttempts
		if attempts == 0 {
			attempts = retry.DefaultMaxAttempts
		}
	}
	if c.AttemptTimeout > 0 && c.Timeout > 0 {
		avail := c.Timeout - c.FallbackReserve
		if c.AttemptTimeout > avail || int64(attempts) > int64(avail/c.AttemptTimeout) {
			reason := "must not exceed Timeout " + c.Timeout.String()
			if c.FallbackReserve > 0 {
				reason += " less FallbackReserve " + c.FallbackReserve.String()
			}
			if attempts > 1 {
				reason = "times the retry's " + strconv.Itoa(attempts) + " attempts " + reason
			}
			return nil, &ConfigError{Field: "AttemptTimeout", Value: c.AttemptTimeout,
				Reason: reason + " (the total deadline would cut the last attempts short)"}
		}
	}
	return p, nil
}

// Config returns the configuration the Path was made from (with a copy of
// the retry policy).
func (p *Path) Config() Config {
	if p == nil {
		return Config{}
	}
	c := Config{
		Timeout:         p.timeout,
		FallbackReserve: p.reserve,
		Breaker:         p.breaker,
		Bulkhead:        p.bulkhead,
		AttemptTimeout:  p.attemptTimeout,
	}
	if p.retry != nil {
		r := *p.retry
		c.Retry = &r
	}
	return c
}

// Execute sends op down the path p and returns what it returns: within the
// total deadline, through the breaker, retried by the retry policy, each
// attempt holding a bulkhead slot and bounded by the per-attempt timeout.
// A nil p calls op once.
//
// op is called with a context that carries ctx's values and cancellation,
// the deadlines of the path, and, with a retry, the attempt's identity
// (retry.AttemptFromContext). That context is never reused: a goroutine
// that keeps it sees its own call's values and cancellation (and the path's
// timeouts, which end when their part returns).
//
// On failure, the error says which layer gave up, with the operation's last
// error in the chain: errors.Is(err, breaker.ErrOpen) when the circuit
// rejected the call (no attempt was made); a [*retry.Error] wrapping
// retry.ErrAttemptsExhausted, retry.ErrDeadline, retry.ErrBudgetExhausted
// or retry.ErrRetryAfterTooLong when the retry stopped; bulkhead.ErrFull
// when an attempt found no slot; a [*TimeoutError] wrapping [ErrTimeout] or
// [ErrAttemptTimeout] when one of the path's timeouts ran out. With the
// error comes the value the last attempt returned (the zero T if none ran).
// If ctx is done before the call starts, Execute returns ctx.Err() without
// calling op.
//
// If op panics, the panic goes on up after the bulkhead slot is given back
// and the breaker has recorded a failure.
func Execute[T any](ctx context.Context, p *Path, op func(context.Context) (T, error)) (T, error) {
	return run(ctx, p, op, nil)
}

// ExecuteWithFallback is [Execute] with a fallback: when the path fails,
// fallback is called once with the error, and what it returns is what
// ExecuteWithFallback returns. It decides what the failure means — answer
// from a cache, degrade, or return err (wrapped or not) to pass the failure
// on — so it sees every failure, including those it should not hide, such
// as a request the dependency rejected as invalid. There is no default
// fallback: a fallback that quietly returns a zero value turns an outage
// into wrong answers nobody notices.
//
// fallback is not called when op succeeds, nor when ctx itself is done (the
// caller has gone or run out of time; ExecuteWithFallback then returns the
// error). Its context carries ctx's values and the total deadline: Timeout,
// or ctx's deadline if sooner. The rest of the path runs
// Config.FallbackReserve short of that deadline, so that a fallback called
// on a timeout still has the reserve to work in; without a reserve, the
// fallback's context is already done when the total deadline was what
// failed the call.
//
// A nil fallback makes ExecuteWithFallback the same as Execute.
func ExecuteWithFallback[T any](ctx context.Context, p *Path, op func(context.Context) (T, error),
	fallback func(ctx context.Context, err error) (T, error)) (T, error) {
	return run(ctx, p, op, fallback)
}

// Do is [Execute] for an operation without a result.
func (p *Path) Do(ctx context.Context, op func(context.Context) error) error {
	_, err := run(ctx, p, func(ctx context.Context) (struct{}, error) { return struct{}{}, op(ctx) }, nil)
	return err
}

// DoWithFallback is [ExecuteWithFallback] for an operation without a result.
// A nil fallback makes it the same as Do.
func (p *Path) DoWithFallback(ctx context.Context, op func(context.Context) error,
	fallback func(ctx context.Context, err error) error) error {
	if fallback == nil {
		return p.Do(ctx, op)
	}
	_, err := run(ctx, p,
		func(ctx context.Context) (struct{}, error) { return struct{}{}, op(ctx) },
		func(ctx context.Context, err error) (struct{}, error) { return struct{}{}, fallback(ctx, err) })
	return err
}

// run is the path: total deadline, then fallback, then guarded.
func run[T any](ctx context.Context, p *Path, op func(context.Context) (T, error),
	fallback func(context.Context, error) (T, error)) (T, error) {
	if p == nil {
		p = &zeroPath
	}
	if err := ctx.Err(); err != nil {
		var zero T
		return zero, err
	}
	var start time.Time // set when the path sets a deadline of its own
	fctx := ctx         // the fallback's context: the total deadline
	if p.timeout > 0 {
		start = time.Now()
		var cancel context.CancelFunc
		fctx, cancel = context.WithDeadlineCause(ctx, start.Add(p.timeout), ErrTimeout)
		defer cancel()
	}
	pctx := fctx // the rest of the path: the total deadline less the reserve
	if fallback != nil && p.reserve > 0 {
		if d, ok := fctx.Deadline(); ok {
			if start.IsZero() {
				start = time.Now()
			}
			var cancel context.CancelFunc
			pctx, cancel = context.WithDeadlineCause(fctx, d.Add(-p.reserve), ErrTimeout)
			defer cancel()
		}
	}
	v, err := guarded(pctx, p, op)
	if err == nil {
		return v, nil
	}
	if !start.IsZero() && context.Cause(pctx) == ErrTimeout {
		d, _ := pctx.Deadline()
		err = &TimeoutError{After: d.Sub(start), Err: err}
	}
	if fallback == nil || ctx.Err() != nil {
		return v, err
	}
	return fallback(fctx, err)
}

// guarded is the breaker around the retry.
func guarded[T any](ctx context.Context, p *Path, op func(context.Context) (T, error)) (T, error) {
	if p.breaker == nil {
		return retried(ctx, p, op)
	}
	return breaker.Execute(ctx, p.breaker, func(ctx context.Context) (T, error) {
		return retried(ctx, p, op)
	})
}

// retried is the retry around the attempts.
func retried[T any](ctx context.Context, p *Path, op func(context.Context) (T, error)) (T, error) {
	if p.retry == nil {
		return attempt(ctx, p, op)
	}
	return retry.DoValue(ctx, p.retry, func(ctx context.Context) (T, error) {
		return attempt(ctx, p, op)
	})
}

// attempt is one attempt: a bulkhead slot, then the per-attempt timeout,
// then op.
func attempt[T any](ctx context.Context, p *Path, op func(context.Context) (T, error)) (v T, err error) {
	if p.bulkhead != nil {
		if err := p.bulkhead.Acquire(ctx); err != nil {
			return v, err
		}
		defer p.bulkhead.Release()
	}
	if p.attemptTimeout <= 0 {
		v, err = op(ctx)
	} else {
		actx, cancel := context.WithTimeoutCause(ctx, p.attemptTimeout, ErrAttemptTimeout)
		defer cancel()
		v, err = op(actx)
		if err != nil && context.Cause(actx) == ErrAttemptTimeout && !retry.IsPermanent(err) {
			err = &TimeoutError{Attempt: true, After: p.attemptTimeout, Err: err}
		}
	}
	if err != nil && p.retry != nil && !retry.IsPermanent(err) && errors.Is(err, deadline.ErrNotEnoughTime) {
		// The time left only shrinks: another attempt would be refused too.
		err = retry.Permanent(err)
	}
	return v, err
}
