// Package retry is a stub of resilint's runtime/retry for tests.
package retry

import (
	"context"
	"time"
)

type Policy struct {
	MaxAttempts int
	BaseDelay   time.Duration
	MaxDelay    time.Duration
}

func Do(ctx context.Context, p *Policy, op func(context.Context) error) error { return op(ctx) }
func DoValue[T any](ctx context.Context, p *Policy, op func(context.Context) (T, error)) (T, error) {
	return op(ctx)
}
