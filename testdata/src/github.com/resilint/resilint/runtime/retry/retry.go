// Package retry is a stub of resilint's runtime/retry for tests.
package retry

import (
	"context"
	"time"
)

type Jitter int

const (
	JitterFull Jitter = iota
	JitterEqual
	JitterDecorrelated
	JitterNone
)

type Policy struct {
	MaxAttempts int
	BaseDelay   time.Duration
	MaxDelay    time.Duration
	Jitter      Jitter

	PerAttemptTimeout time.Duration
	Classify          func(err error) bool
}

func Do(ctx context.Context, p *Policy, op func(context.Context) error) error { return op(ctx) }
func DoValue[T any](ctx context.Context, p *Policy, op func(context.Context) (T, error)) (T, error) {
	return op(ctx)
}

func Backoff(base, max time.Duration, attempt int) time.Duration { return base }
func FullJitter(d time.Duration) time.Duration                   { return d }
func EqualJitter(d time.Duration) time.Duration                  { return d }
func Sleep(ctx context.Context, d time.Duration) error           { return nil }

func IsCircuitOpen(err error) bool { return false }
func Permanent(err error) error    { return err }
