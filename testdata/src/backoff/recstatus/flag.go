package recstatus

import (
	"context"
	"errors"
	"time"
)

type group struct {
	pause  time.Duration
	closed chan struct{}
}

func (g *group) refresh() error                   { return errors.New("no coordinator") }
func (g *group) join(ctx context.Context) error   { return nil }
func (g *group) locate(ctx context.Context) error { return nil }

// retryJoin waits the configured pause, then refreshes the coordinator
// when asked to; when that fails it calls itself again with the flag it
// was found to hold: the same request, reported.
func (g *group) retryJoin(ctx context.Context, left int, refresh bool) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-g.closed:
		return errors.New("closed")
	case <-time.After(g.pause): // want `retry delay has no jitter`
	}
	if refresh {
		if err := g.refresh(); err != nil {
			if left <= 0 {
				return err
			}
			return g.retryJoin(ctx, left-1, true)
		}
	}
	return g.join(ctx)
}

// retryLocate asks again with the flag turned on where it was off: a
// different request each time, not reported.
func (g *group) retryLocate(ctx context.Context, left int, refresh bool) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(g.pause):
	}
	if !refresh {
		if err := g.locate(ctx); err != nil {
			if left <= 0 {
				return err
			}
			return g.retryLocate(ctx, left-1, true)
		}
	}
	return nil
}
