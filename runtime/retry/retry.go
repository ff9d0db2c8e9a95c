package retry

import (
	"context"
	"math"
	"time"
)

// Do calls op until it succeeds or the policy says to stop, and returns nil
// or the error that made it stop. A nil p means the zero Policy.
//
// Do stops and returns op's error unchanged when the error is marked
// [Permanent] (the mark removed), comes from an open circuit breaker
// ([IsCircuitOpen]), or is not worth another attempt for p.Classify (by
// default [Retryable]). It gives up with an [*Error] wrapping the reason and
// op's last error when the attempts are spent ([ErrAttemptsExhausted]), when
// the next delay would reach past ctx's deadline ([ErrDeadline]), when
// p.Budget has no token ([ErrBudgetExhausted]), when a Retry-After asks for
// more than MaxDelay ([ErrRetryAfterTooLong]), or when ctx is done
// (ctx.Err()). If ctx is done before the first attempt, Do returns ctx.Err()
// without calling op. If p is invalid, Do returns the error of
// [Policy.Validate] without calling op; it never panics on a bad policy. A
// panic in op is not recovered.
//
// The context passed to op carries the caller's values, deadline and
// cancellation, the attempt's identity ([AttemptFromContext]) and, if
// p.PerAttemptTimeout is set, the attempt's timeout. Each attempt gets a
// context of its own, never reused: a goroutine that keeps it after op
// returned sees its own call's values and cancellation (a per-attempt
// timeout is canceled when op returns). That costs one small allocation per
// attempt.
func Do(ctx context.Context, p *Policy, op func(context.Context) error) error {
	if p == nil {
		p = &zeroPolicy
	}
	if !p.valid() {
		return p.Validate()
	}
	if p.Budget != nil {
		p.Budget.Deposit()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	first := &attemptCtx{Context: ctx, number: 1}
	err := p.call(first, op)
	if err == nil {
		return nil
	}
	return p.retry(ctx, first, op, err)
}

// DoValue is [Do] for an operation that returns a value. It returns the
// value of the successful attempt or, with an error, the value the last
// attempt returned along with its error.
func DoValue[T any](ctx context.Context, p *Policy, op func(context.Context) (T, error)) (T, error) {
	var v T
	err := Do(ctx, p, func(ctx context.Context) error {
		var err error
		v, err = op(ctx)
		return err
	})
	return v, err
}

// call makes one attempt with c, whose Context is the caller's context.
func (p *Policy) call(c *attemptCtx, op func(context.Context) error) error {
	if p.PerAttemptTimeout <= 0 {
		return op(c)
	}
	ctx, cancel := context.WithTimeout(c.Context, p.PerAttemptTimeout)
	defer cancel()
	first := c.first
	if first == nil {
		first = c
	}
	return op(&attemptCtx{Context: ctx, number: c.number, first: first})
}

// retry is the slow path: attempt 1 failed with err.
func (p *Policy) retry(ctx context.Context, first *attemptCtx, op func(context.Context) error, err error) error {
	c := first
	maxAttempts := p.maxAttempts()
	var prev time.Duration
	for n := 1; ; n++ { // n attempts made; err is the last one's error
		if pe, ok := err.(*permanentError); ok {
			return pe.err
		}
		if IsPermanent(err) || IsCircuitOpen(err) {
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			return &Error{Attempts: n, Reason: cerr, Err: err}
		}
		if p.Classify != nil && !p.Classify(err) || p.Classify == nil && !Retryable(err, p.Idempotent) {
			return err
		}
		if n >= maxAttempts {
			return &Error{Attempts: n, Reason: ErrAttemptsExhausted, Err: err}
		}
		d := p.delay(n-1, prev)
		if ra := retryAfter(err); ra > 0 {
			if ra > p.maxDelay() {
				return &Error{Attempts: n, Reason: ErrRetryAfterTooLong, Err: err}
			}
			d = max(d, ra)
		}
		if deadline, ok := ctx.Deadline(); ok {
			need := time.Duration(math.MaxInt64)
			if d <= math.MaxInt64-p.MinAttemptBudget {
				need = d + p.MinAttemptBudget
			}
			if time.Until(deadline) <= need {
				return &Error{Attempts: n, Reason: ErrDeadline, Err: err}
			}
		}
		if p.Budget != nil && !p.Budget.TryWithdraw() {
			return &Error{Attempts: n, Reason: ErrBudgetExhausted, Err: err}
		}
		if p.OnRetry != nil {
			p.OnRetry(c, RetryEvent{Attempt: n, Err: err, Delay: d})
		}
		if serr := Sleep(ctx, d); serr != nil {
			return &Error{Attempts: n, Reason: serr, Err: err}
		}
		prev = d
		c = &attemptCtx{Context: ctx, number: n + 1, first: first}
		if err = p.call(c, op); err == nil {
			return nil
		}
	}
}
