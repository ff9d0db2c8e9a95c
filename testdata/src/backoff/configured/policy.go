package configured

import (
	"context"
	"time"
)

// Strategy answers the pause before the next try; what it answers is the
// caller's choice.
type Strategy func(attempt int) time.Duration

type runner struct {
	strategy Strategy
	next     time.Duration // set from the strategy on every pass
	fixed    time.Duration // set from a constant only
}

// RunPolicy waits what its strategy answered, kept in a field: that
// policy's answer, which may jitter. Not judged.
func (r *runner) RunPolicy(ctx context.Context, op func() error) error {
	for i := 0; ; i++ {
		r.next = r.strategy(i)
		err := op()
		if err == nil || i >= 3 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(r.next):
		}
	}
}

// RunFixed waits a field the package only ever sets to a constant: a
// configured delay, the same for every client. Reported.
func (r *runner) RunFixed(ctx context.Context, op func() error) error {
	r.fixed = 2 * time.Second
	for i := 0; ; i++ {
		err := op()
		if err == nil || i >= 3 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(r.fixed): // want `retry delay has no jitter`
		}
	}
}
