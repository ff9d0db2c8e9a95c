package ownlife

import (
	"context"
	"time"

	"timeoutchain/ownlife/timer"
)

type channel struct {
	after   timer.AfterFunc
	stop    chan struct{}
	pending chan error
}

// within bounds the context it is given through another package's
// helper, on the channel's clock.
func (c *channel) within(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return timer.Within(ctx, c.after, d)
}

func (c *channel) await(ctx context.Context) error {
	select {
	case err := <-c.pending:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Join waits for the server's answer for a second of its own, whatever
// the caller's context does: a lifetime of its own, not reported.
func (c *channel) Join(ctx context.Context) error {
	wctx, cancel := c.within(context.Background(), time.Second)
	defer cancel()
	return c.await(wctx)
}

// JoinDirect calls the other package's constructor itself: not
// reported.
func (c *channel) JoinDirect(ctx context.Context) error {
	wctx, cancel := timer.Within(context.Background(), c.after, time.Second)
	defer cancel()
	return c.await(wctx)
}

// JoinShort bounds it by a deadline the helper sets: not reported.
func (c *channel) JoinShort(ctx context.Context) error {
	wctx, cancel := timer.Short(context.Background())
	defer cancel()
	return c.await(wctx)
}

// JoinLinked ends it only when the channel stops: the answer is awaited
// as long as that takes, reported.
func (c *channel) JoinLinked(ctx context.Context) error {
	wctx, cancel := timer.Linked(context.Background(), c.stop) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	defer cancel()
	return c.await(wctx)
}
