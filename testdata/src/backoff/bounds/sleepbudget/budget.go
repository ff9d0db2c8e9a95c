// Package sleepbudget is a backoffer of another package: it holds the
// caller's context and a budget of sleep, and says when to give up.
package sleepbudget

import (
	"context"
	"errors"
	"time"
)

// A Policy waits one pause of its kind under a context and says how long.
type Policy struct {
	Name string
	Wait func(ctx context.Context) time.Duration
}

// Backoffer spends a budget of sleep across the retries of one request.
type Backoffer struct {
	ctx   context.Context
	limit time.Duration
	spent time.Duration
}

func New(ctx context.Context, limit time.Duration) *Backoffer {
	return &Backoffer{ctx: ctx, limit: limit}
}

func (b *Backoffer) Ctx() context.Context { return b.ctx }

var errSpent = errors.New("backoff budget spent")

// Backoff waits p's pause, or returns an error once the context is done
// or the budget is spent.
func (b *Backoffer) Backoff(p *Policy, err error) error {
	return b.backoffAtMost(p, -1, err)
}

// backoffAtMost is Backoff with a longest pause (none when negative).
func (b *Backoffer) backoffAtMost(p *Policy, most time.Duration, err error) error {
	select {
	case <-b.ctx.Done():
		return errors.Join(b.ctx.Err(), err)
	default:
	}
	if b.spent >= b.limit {
		return errors.Join(errSpent, err)
	}
	d := p.Wait(b.ctx)
	if most >= 0 {
		d = min(d, most)
	}
	b.spent += d
	return nil
}
