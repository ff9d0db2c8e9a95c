package branches

import (
	"context"
	"time"
)

// DoFast sets a short timeout in a branch that returns: the longer one
// after it is set on the caller's context, never on the short one.
func DoFast(ctx context.Context, fast bool, op func(context.Context) error) error {
	if fast {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
		return op(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return op(ctx)
}

// The near miss: the branch does not leave, the short timeout is still in
// force after it.
func DoFastOn(ctx context.Context, fast bool, op func(context.Context) error) error {
	if fast {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second) // want `sets a 10s timeout on a context that has at most 1s left`
	defer cancel()
	return op(ctx)
}
