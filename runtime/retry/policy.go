package retry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Defaults for the zero fields of a [Policy].
const (
	DefaultMaxAttempts = 3
	DefaultBaseDelay   = 100 * time.Millisecond
	DefaultMaxDelay    = 10 * time.Second
)

// Policy configures [Do] and [DoValue]. The zero value of every field is a
// documented default, so &Policy{} (or a nil *Policy) is a usable policy:
// 3 attempts, full-jitter delays from 100ms capped at 10s, the default
// classifier for a non-idempotent operation, no budget.
//
// A Policy is a plain value with no hidden state: Do and Delay only read
// it, so it is safe to share between goroutines, and to copy while Do runs,
// as long as nobody modifies it while it is in use.
type Policy struct {
	// MaxAttempts is the total number of attempts, the first one included:
	// 3 means one call and at most two retries. Zero means 3; 1 means no
	// retry. Negative is invalid.
	MaxAttempts int

	// BaseDelay is the delay cap before the first retry; the cap doubles with
	// each retry up to MaxDelay. Zero means 100ms, or MaxDelay if that is
	// set and smaller. Negative is invalid, as is a BaseDelay above a
	// MaxDelay that is set.
	BaseDelay time.Duration

	// MaxDelay caps every delay, including one requested by Retry-After
	// (a longer Retry-After stops Do; see ErrRetryAfterTooLong). Zero means
	// 10s, or BaseDelay if that is larger. Negative is invalid.
	MaxDelay time.Duration

	// Jitter says how a delay is drawn below its cap. The zero value is
	// JitterFull.
	Jitter Jitter

	// PerAttemptTimeout, if positive, bounds each attempt: the operation
	// gets a context that expires after this long (or at the caller's
	// deadline, if sooner). Zero means no per-attempt timeout. Negative is
	// invalid. See ValidateFor for the check against the caller's deadline.
	PerAttemptTimeout time.Duration

	// MinAttemptBudget is the least time an attempt needs. Do does not
	// start another attempt when less than the delay plus MinAttemptBudget
	// is left before the context's deadline; it returns ErrDeadline instead.
	// Zero means any time left is enough. Negative is invalid.
	MinAttemptBudget time.Duration

	// Classify reports whether a failed attempt's error is worth another
	// attempt. Nil means Retryable(err, Idempotent). Whatever Classify says,
	// errors marked Permanent, errors from an open circuit breaker (see
	// IsCircuitOpen) and the cancellation of the caller's context stop Do.
	Classify func(err error) bool

	// Idempotent tells the default classifier that the operation may be
	// repeated even when its outcome is unknown: with Idempotent set, HTTP
	// 500, timeouts and connections lost mid-request are retried too. It is
	// not used when Classify is set.
	Idempotent bool

	// Budget, if not nil, is a retry budget shared with other calls (usually
	// every call to one downstream service): each call of Do deposits into
	// it, and each retry needs a token from it. Nil means no budget.
	Budget *Budget

	// OnRetry, if not nil, is called before each retry's delay, with the
	// context passed to the failed attempt (AttemptFromContext works on it)
	// and what happened. It must not block; use it for metrics and logs.
	OnRetry func(ctx context.Context, ev RetryEvent)

	// Rand, if not nil, is the random source for jitter, for deterministic
	// tests (a *math/rand/v2.Rand fits). It must be safe for concurrent use
	// if the policy is shared. Nil means math/rand/v2's top-level generator:
	// safe for concurrent use and seeded by the Go runtime from the
	// operating system's entropy, so never a fixed seed and never the same
	// sequence in two processes.
	Rand Source
}

// RetryEvent describes a retry about to happen, for [Policy.OnRetry].
type RetryEvent struct {
	// Attempt is the number of the attempt that failed, from 1.
	Attempt int
	// Err is the error it returned.
	Err error
	// Delay is how long Do will wait before the next attempt.
	Delay time.Duration
}

// Source is a source of random numbers for jitter. *math/rand/v2.Rand
// implements it.
type Source interface {
	// Int64N returns a uniform random value in [0, n); n > 0.
	Int64N(n int64) int64
}

// Jitter selects how a delay is drawn below its cap.
type Jitter int

const (
	// JitterFull draws the delay uniformly from [0, cap]: the flattest load on
	// a recovering service. The default.
	JitterFull Jitter = iota
	// JitterEqual draws from [cap/2, cap]: a guaranteed half, a random half.
	JitterEqual
	// JitterDecorrelated draws from [BaseDelay, 3·previous delay], capped by
	// MaxDelay (the "decorrelated jitter" of the AWS architecture blog).
	JitterDecorrelated
	// JitterNone waits the cap itself. Clients that fail together retry
	// together: use it only where a single client retries.
	JitterNone
)

// String returns "full", "equal", "decorrelated" or "none".
func (j Jitter) String() string {
	switch j {
	case JitterFull:
		return "full"
	case JitterEqual:
		return "equal"
	case JitterDecorrelated:
		return "decorrelated"
	case JitterNone:
		return "none"
	}
	return fmt.Sprintf("Jitter(%d)", int(j))
}

// zeroPolicy is what a nil *Policy means.
var zeroPolicy Policy

func (p *Policy) maxAttempts() int {
	if p.MaxAttempts == 0 {
		return DefaultMaxAttempts
	}
	return p.MaxAttempts
}

func (p *Policy) baseDelay() time.Duration {
	if p.BaseDelay == 0 {
		if p.MaxDelay > 0 {
			return min(DefaultBaseDelay, p.MaxDelay)
		}
		return DefaultBaseDelay
	}
	return p.BaseDelay
}

func (p *Policy) maxDelay() time.Duration {
	if p.MaxDelay == 0 {
		return max(DefaultMaxDelay, p.BaseDelay)
	}
	return p.MaxDelay
}

// valid is the allocation-free check Do runs on every call.
func (p *Policy) valid() bool {
	return p.MaxAttempts >= 0 && p.BaseDelay >= 0 && p.MaxDelay >= 0 &&
		p.baseDelay() <= p.maxDelay() &&
		p.Jitter >= JitterFull && p.Jitter <= JitterNone &&
		p.PerAttemptTimeout >= 0 && p.MinAttemptBudget >= 0
}

// Validate reports every problem with the policy, each a [*ConfigError]
// (several are joined with errors.Join), or nil. A nil *Policy is valid (it
// means the zero Policy). Do runs the same checks and, on an invalid policy,
// returns this error without calling the operation.
func (p *Policy) Validate() error {
	if p == nil {
		return nil
	}
	var errs []error
	bad := func(field string, value any, reason string) {
		errs = append(errs, &ConfigError{Field: "Policy." + field, Value: value, Reason: reason})
	}
	if p.MaxAttempts < 0 {
		bad("MaxAttempts", p.MaxAttempts, fmt.Sprintf("want at least 1 (or 0 for the default, %d)", DefaultMaxAttempts))
	}
	if p.BaseDelay < 0 {
		bad("BaseDelay", p.BaseDelay, fmt.Sprintf("want a positive duration (or 0 for the default, %v)", DefaultBaseDelay))
	}
	if p.MaxDelay < 0 {
		bad("MaxDelay", p.MaxDelay, fmt.Sprintf("want a positive duration (or 0 for the default, %v)", DefaultMaxDelay))
	}
	if p.BaseDelay >= 0 && p.MaxDelay >= 0 && p.baseDelay() > p.maxDelay() {
		bad("BaseDelay", p.baseDelay(), fmt.Sprintf("above MaxDelay %v", p.maxDelay()))
	}
	if p.Jitter < JitterFull || p.Jitter > JitterNone {
		bad("Jitter", int(p.Jitter), "unknown")
	}
	if p.PerAttemptTimeout < 0 {
		bad("PerAttemptTimeout", p.PerAttemptTimeout, "want a positive duration (or 0 for none)")
	}
	if p.MinAttemptBudget < 0 {
		bad("MinAttemptBudget", p.MinAttemptBudget, "want a positive duration (or 0 for none)")
	}
	return errors.Join(errs...)
}

// ValidateFor is Validate, and also reports a policy that cannot fit in the
// time left before ctx's deadline: PerAttemptTimeout × MaxAttempts longer
// than that time means the last attempts would be cut short by the deadline.
func (p *Policy) ValidateFor(ctx context.Context) error {
	if p == nil {
		p = &zeroPolicy
	}
	err := p.Validate()
	if err != nil || p.PerAttemptTimeout <= 0 {
		return err
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		return nil
	}
	n := p.maxAttempts()
	total := time.Duration(math.MaxInt64)
	if p.PerAttemptTimeout <= math.MaxInt64/time.Duration(n) {
		total = p.PerAttemptTimeout * time.Duration(n)
	}
	if left := time.Until(deadline); total > left {
		return &ConfigError{Field: "Policy.PerAttemptTimeout", Value: p.PerAttemptTimeout,
			Reason: fmt.Sprintf("× MaxAttempts %d = %v exceeds the %v left before the deadline", n, total, left.Round(time.Millisecond))}
	}
	return nil
}
