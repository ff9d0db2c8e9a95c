package specific

import (
	"context"
	"errors"
	"time"

	"model/outage/rpcerr"
)

type kv struct{ calls int }

func (c *kv) put(ctx context.Context) error {
	c.calls++
	if c.calls%2 == 0 {
		return rpcerr.ErrKeyMissing
	}
	return rpcerr.ErrTooMany
}

// PutThrottled goes round only while the cluster says it has too many
// requests, an error made from a gRPC ResourceExhausted status: every
// client of an overloaded cluster meets it together, so the fixed second
// is reported.
func (c *kv) PutThrottled(ctx context.Context) error {
	for {
		err := c.put(ctx)
		if !errors.Is(err, rpcerr.ErrTooMany) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // want `retry delay has no jitter`
		}
	}
}

// PutUntilCreated goes round only while the key is missing, an
// InvalidArgument status: its request's own state, not reported.
func (c *kv) PutUntilCreated(ctx context.Context) error {
	for {
		err := c.put(ctx)
		if !errors.Is(err, rpcerr.ErrKeyMissing) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
