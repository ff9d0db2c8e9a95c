package defaults

import (
	"context"
	"time"
)

const maxQuery = 10 * time.Second

// DoCapped sets its 10s only when the caller set none, or one later than
// 10s from now: it never outlives the caller's deadline.
func (c *Client) DoCapped(ctx context.Context) error {
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > maxQuery {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, maxQuery)
		defer cancel()
	}
	return c.call(ctx)
}

// DoCappedSub writes the time left as dl.Sub(time.Now()).
func (c *Client) DoCappedSub(ctx context.Context) error {
	dl, ok := ctx.Deadline()
	if !ok || maxQuery <= dl.Sub(time.Now()) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, maxQuery)
		defer cancel()
	}
	return c.call(ctx)
}

// DoCappedAnd sets it only when there is a deadline further away: with
// none it sets nothing.
func (c *Client) DoCappedAnd(ctx context.Context) error {
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) > maxQuery {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, maxQuery)
		defer cancel()
	}
	return c.call(ctx)
}

// Near miss: the time left compared with less than the timeout set.
func (c *Client) DoCappedShort(ctx context.Context) error {
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > time.Second {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, maxQuery)
		defer cancel()
	}
	return c.call(ctx)
}

func HandleCapped(ctx context.Context, c *Client) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := c.DoCapped(ctx); err != nil {
		return err
	}
	if err := c.DoCappedSub(ctx); err != nil {
		return err
	}
	if err := c.DoCappedAnd(ctx); err != nil {
		return err
	}
	return c.DoCappedShort(ctx) // want `sets a 10s timeout on a context that has at most 2s left`
}
