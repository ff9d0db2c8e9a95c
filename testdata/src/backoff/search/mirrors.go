package search

import (
	"context"
	"time"
)

func fetchFrom(ctx context.Context, addr string) error { return nil }

func withTimeout(ctx context.Context, d time.Duration, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return f(ctx)
}

// Each pass takes the next mirror and hands it to a closure the
// operation runs: a fail-over over candidates, not a retry.
func FetchAny(ctx context.Context, mirrors []string) error {
	var err error
	for i := 0; i < len(mirrors); i++ {
		m := mirrors[i]
		err = withTimeout(ctx, 2*time.Second, func(ctx context.Context) error { return fetchFrom(ctx, m) })
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return err
}

// The near miss: every pass sends to the first mirror again.
func FetchFirst(ctx context.Context, mirrors []string) error {
	var err error
	for i := 0; i < 3; i++ {
		m := mirrors[0]
		err = withTimeout(ctx, 2*time.Second, func(ctx context.Context) error { return fetchFrom(ctx, m) })
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond): // want `retry delay has no jitter`
		}
	}
	return err
}
