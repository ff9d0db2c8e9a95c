// Package callpath is a stub of resilint's runtime/callpath for tests.
package callpath

import (
	"context"
	"time"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/retry"
)

type Config struct {
	Timeout        time.Duration
	Breaker        *breaker.Breaker
	Retry          *retry.Policy
	AttemptTimeout time.Duration
}

type Path struct{}

func New(c Config) (*Path, error) { return &Path{}, nil }

func Execute[T any](ctx context.Context, p *Path, op func(context.Context) (T, error)) (T, error) {
	return op(ctx)
}

func ExecuteWithFallback[T any](ctx context.Context, p *Path, op func(context.Context) (T, error), fallback func(context.Context, error) (T, error)) (T, error) {
	return op(ctx)
}

func (p *Path) Do(ctx context.Context, op func(context.Context) error) error { return op(ctx) }

func (p *Path) DoWithFallback(ctx context.Context, op func(context.Context) error, fallback func(context.Context, error) error) error {
	return op(ctx)
}
