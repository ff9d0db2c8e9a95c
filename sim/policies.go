package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/resilint/resilint/runtime/retry"
)

// Shape is the schedule the reference policies share: attempts, the first
// delay and the cap. The zero Shape is 6 attempts, 1s doubling to 16s (the
// 1 s, 2 s, 4 s, 8 s, 16 s of plain exponential backoff).
type Shape struct {
	Attempts int
	Base     time.Duration
	Max      time.Duration
	// Timeout is each policy's PerAttemptTimeout (zero: none).
	Timeout time.Duration
}

func (s Shape) fill() Shape {
	if s.Attempts == 0 {
		s.Attempts = 6
	}
	if s.Base == 0 {
		s.Base = time.Second
	}
	if s.Max == 0 {
		s.Max = max(16*time.Second, s.Base)
	}
	return s
}

// ReferenceNames are the named reference policies, in the default
// comparison's order: fixed delay, exponential without jitter, equal, full
// and decorrelated jitter, and runtime/retry's default policy.
var ReferenceNames = []string{"fixed", "none", "equal", "full", "decorrelated", "default"}

// Reference returns the named reference policy as a runtime/retry Policy
// with the Shape's attempts and delays; "default" is the zero Policy
// (runtime/retry's defaults: 3 attempts, full jitter from 100ms to 10s) and
// ignores the Shape. The operation is treated as idempotent, so timeouts
// and lost connections are retried too.
func Reference(name string, s Shape) (retry.Policy, error) {
	s = s.fill()
	p := retry.Policy{MaxAttempts: s.Attempts, BaseDelay: s.Base, MaxDelay: s.Max, Idempotent: true, PerAttemptTimeout: s.Timeout}
	switch name {
	case "fixed":
		p.Jitter, p.MaxDelay = retry.JitterNone, s.Base
	case "none":
		p.Jitter = retry.JitterNone
	case "equal":
		p.Jitter = retry.JitterEqual
	case "full":
		p.Jitter = retry.JitterFull
	case "decorrelated":
		p.Jitter = retry.JitterDecorrelated
	case "default":
		p = retry.Policy{Idempotent: true, PerAttemptTimeout: s.Timeout}
	default:
		return p, fmt.Errorf("sim: unknown policy %q; known: %s", name, strings.Join(ReferenceNames, ", "))
	}
	if err := p.Validate(); err != nil {
		return p, err
	}
	return p, nil
}

// Describe is a one-line account of a policy's schedule.
func Describe(p *retry.Policy) string {
	flat := *p
	flat.Jitter, flat.Rand, flat.Budget = retry.JitterNone, nil, nil
	var caps []string
	n := p.MaxAttempts
	if n == 0 {
		n = retry.DefaultMaxAttempts
	}
	for k := 0; k < n-1 && k < 8; k++ {
		caps = append(caps, flat.Delay(k, 0, nil).String())
	}
	if n-1 > 8 {
		caps = append(caps, "…")
	}
	switch {
	case p.Jitter == retry.JitterDecorrelated:
		return fmt.Sprintf("%d attempts, decorrelated jitter from %v, capped at %v", n, flat.Delay(0, 0, nil), flat.Delay(62, 0, nil))
	case p.Jitter == retry.JitterNone && flat.Delay(0, 0, nil) == flat.Delay(62, 0, nil):
		return fmt.Sprintf("%d attempts, a fixed delay of %v", n, flat.Delay(0, 0, nil))
	case p.Jitter == retry.JitterNone:
		return fmt.Sprintf("%d attempts, no jitter: waits %s", n, strings.Join(caps, ", "))
	}
	return fmt.Sprintf("%d attempts, %s jitter below caps %s", n, p.Jitter, strings.Join(caps, ", "))
}
