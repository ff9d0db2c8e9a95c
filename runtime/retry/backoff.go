package retry

import (
	"context"
	"math"
	"math/rand/v2"
	"time"
)

// Backoff returns the delay cap before retry number attempt (0 for the first
// retry): min(max, base·2^attempt), computed without overflow for every
// attempt, however large. A negative attempt counts as 0, a non-positive
// base gives 0, and a non-positive max means no cap below the largest
// Duration. Draw the actual delay below the cap with [FullJitter].
func Backoff(base, max time.Duration, attempt int) time.Duration {
	if base <= 0 {
		return 0
	}
	if max <= 0 {
		max = math.MaxInt64
	}
	if base >= max {
		return max
	}
	if attempt < 0 {
		attempt = 0
	}
	// base·2^attempt <= max  ⇔  base <= max>>attempt (integers, base > 0).
	if attempt >= 63 || base > max>>uint(attempt) {
		return max
	}
	return base << uint(attempt)
}

// FullJitter returns a delay drawn uniformly from [0, d]: the "full jitter"
// that spreads clients failing together over the whole window. d <= 0 gives
// 0. It uses math/rand/v2's generator (randomly seeded, safe for concurrent
// use). A hand-written loop waits retry.FullJitter(retry.Backoff(base, max, i)).
func FullJitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return uniform(nil, 0, d)
}

// EqualJitter returns a delay drawn uniformly from [d/2, d]: half fixed,
// half random. Full jitter spreads load flatter; prefer [FullJitter] unless
// a minimum wait matters. d <= 0 gives 0.
func EqualJitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return uniform(nil, d/2, d)
}

// Sleep waits for d, or less if ctx is done first, and never past ctx's
// deadline:
//
//   - If ctx is already done, it returns ctx.Err() at once.
//   - If d <= 0, it returns nil at once.
//   - If ctx's deadline comes before d has passed, it returns ErrDeadline at
//     once, without sleeping: waking at the deadline would leave no time for
//     another attempt anyway.
//   - If ctx is done while it sleeps, it returns ctx.Err() at once.
//   - Otherwise it returns nil after d.
func Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) <= d {
		return ErrDeadline
	}
	done := ctx.Done()
	if done == nil {
		time.Sleep(d)
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// delay returns the wait before retry k (0 for the first retry); prev is the
// previous wait, for decorrelated jitter.
func (p *Policy) delay(k int, prev time.Duration) time.Duration {
	return p.Delay(k, prev, nil)
}

// Delay returns the wait that Do takes before retry k (0 for the first
// retry, the one after attempt 1 failed): the cap grows from BaseDelay to
// MaxDelay and the wait is drawn below it as Jitter says. prev is the
// previous wait (JitterDecorrelated draws from it; 0 before the first
// retry). src is the random source; nil means the policy's (Rand, or
// math/rand/v2's generator). A nil *Policy is the default policy.
//
// Delay leaves out what depends on the call (Retry-After, the budget, the
// context's deadline). It is there for simulators and tests that need a
// policy's schedule without running Do.
func (p *Policy) Delay(k int, prev time.Duration, src Source) time.Duration {
	if p == nil {
		p = &zeroPolicy
	}
	if src == nil {
		src = p.Rand // nil: math/rand/v2's generator, in uniform
	}
	base, max := p.baseDelay(), p.maxDelay()
	switch p.Jitter {
	case JitterNone:
		return Backoff(base, max, k)
	case JitterEqual:
		c := Backoff(base, max, k)
		return uniform(src, c/2, c)
	case JitterDecorrelated:
		if prev < base {
			prev = base
		}
		hi := max
		if prev <= max/3 {
			hi = prev * 3
		}
		return uniform(src, base, hi)
	default:
		return uniform(src, 0, Backoff(base, max, k))
	}
}

// uniform returns a value drawn uniformly from [lo, hi]; 0 <= lo <= hi. The
// result is clamped to [lo, hi] whatever src returns.
func uniform(src Source, lo, hi time.Duration) time.Duration {
	span := int64(hi - lo)
	if span <= 0 {
		return lo
	}
	n := span + 1
	if span == math.MaxInt64 {
		n = span // [0, MaxInt64): the top value is not worth an overflow
	}
	var r int64
	if src == nil {
		r = rand.Int64N(n)
	} else {
		r = src.Int64N(n)
	}
	if r < 0 {
		r = 0
	} else if r > span {
		r = span
	}
	return lo + time.Duration(r)
}
