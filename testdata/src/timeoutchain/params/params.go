// Package params: the arguments of one call bundled in a struct passed by
// value, its context among them, are that call's context in scope.
package params

import (
	"context"
	"errors"
	"time"
)

type doParams struct {
	ctx      context.Context
	key      string
	attempts int
}

type cluster struct{ pause time.Duration }

func (c *cluster) send(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.New("moved")
}

// do retries by recursion and pauses without watching its arguments'
// context: reported.
func (c *cluster) do(p doParams) error {
	if p.attempts <= 0 {
		return errors.New("too many redirects")
	}
	err := c.send(p.ctx, p.key)
	if err == nil {
		return nil
	}
	time.Sleep(c.pause) // want `the recursive retry waits without watching p.ctx`
	p.attempts--
	return c.do(p)
}

// flush drops its arguments' context: reported, with p.ctx as the fix.
func (c *cluster) flush(p doParams) error {
	return c.send(context.Background(), p.key) // want `context.Background\(\) drops the deadline and cancellation of p.ctx`
}

// session is a long-lived value held by pointer: its context is its
// lifetime, not a call's. Not reported.
type session struct {
	ctx context.Context
	key string
}

func (c *cluster) close(s *session) error {
	return c.send(context.Background(), s.key)
}
