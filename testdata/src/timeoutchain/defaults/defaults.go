// Package defaults: a timeout set only when the caller's context has no
// deadline is a default for callers that set none; under a caller's
// deadline it never applies, so it is no inner timeout, here or through
// the function's fact.
package defaults

import (
	"context"
	"time"
)

type Client struct {
	call func(context.Context) error
}

// Do gives a context without a deadline a default of 30s.
func (c *Client) Do(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
	}
	return c.call(ctx)
}

// DoZero tests the deadline's time instead, in a statement before.
func (c *Client) DoZero(ctx context.Context) error {
	dl, _ := ctx.Deadline()
	if dl.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
	}
	return c.call(ctx)
}

// DoAlways sets its 30s whatever the caller set.
func (c *Client) DoAlways(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return c.call(ctx)
}

func Handle(ctx context.Context, c *Client) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := c.Do(ctx); err != nil {
		return err
	}
	if err := c.DoZero(ctx); err != nil {
		return err
	}
	return c.DoAlways(ctx) // want `sets a 30s timeout on a context that has at most 2s left`
}

// The near miss: the test is of another context's deadline.
func (c *Client) DoOther(ctx, other context.Context) error {
	if _, ok := other.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
	}
	return c.call(ctx)
}

func HandleOther(ctx, other context.Context, c *Client) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return c.DoOther(ctx, other) // want `sets a 30s timeout on a context that has at most 2s left`
}
