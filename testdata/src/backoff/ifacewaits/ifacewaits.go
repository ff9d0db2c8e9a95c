// Package ifacewaits is a client that waits between attempts through an
// interface it holds: whether the call waits depends on the implementations
// the package has.
package ifacewaits

import (
	"context"
	"errors"
	"time"
)

var errRotated = errors.New("connection rotated")

type conn interface {
	Do(ctx context.Context, cmd string) error
}

// pacer decides whether to try again, and waits before saying yes.
type pacer interface {
	PauseOrGiveUp(ctx context.Context, attempt int, err error) bool
}

// linearPacer is the package's implementation: it waits.
type linearPacer struct{ step time.Duration }

func (p *linearPacer) PauseOrGiveUp(ctx context.Context, attempt int, err error) bool {
	if attempt > 5 {
		return false
	}
	t := time.NewTimer(p.step * time.Duration(attempt))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

type Client struct {
	c conn
	p pacer
	v verdict
}

// Do waits through the pacer interface; the one immediate resend is on the
// client's own rotation of its connection. An implementation of the
// interface in this package waits, so the call may wait: no finding.
func (c *Client) Do(ctx context.Context, cmd string) error {
	attempt := 1
again:
	err := c.c.Do(ctx, cmd)
	if err != nil {
		if err == errRotated {
			goto again
		}
		if c.p.PauseOrGiveUp(ctx, attempt, err) {
			attempt++
			goto again
		}
	}
	return err
}

// verdict only decides; no implementation in this package waits.
type verdict interface {
	Retryable(err error) bool
}

type always struct{}

func (always) Retryable(err error) bool { return err != nil }

// Decide asks an interface that never waits: the loop tries again at once.
func (c *Client) Decide(ctx context.Context, cmd string) error {
	for attempt := 0; attempt < 3; attempt++ { // want `loop tries again at once after a failure`
		err := c.c.Do(ctx, cmd)
		if err == nil || !c.v.Retryable(err) {
			return err
		}
	}
	return errors.New("gave up")
}
