package failover

import (
	"context"

	"backoff/failover/endpoints"
)

// dialEach dials the listed instances in turn, each once: the list's
// cursor answers nil past its end and the loop leaves then. A fail-over
// over a finite list, bounded by it: not reported.
func dialEach(ctx context.Context, list *endpoints.List) error {
	var err error
	for {
		addr := list.At(false)
		if addr == nil {
			return err
		}
		if err = query(ctx, *addr); err == nil {
			return nil
		}
		if addr = list.At(true); addr == nil {
			break
		}
	}
	return err
}

// dialRound has a cursor that never runs out: its nil test is never
// true, and the loop comes round to the instances that failed, at once.
// Reported.
func dialRound(ctx context.Context, ring *endpoints.Loop) error {
	var err error
	for { // want `retry loop tries again at once after a failure`
		addr := ring.At(false)
		if err = query(ctx, *addr); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		ring.At(true)
	}
}
