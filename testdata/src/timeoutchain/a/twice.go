package a

import (
	"context"
	"time"

	"timeoutchain/svc"
)

// One inner timeout reached twice under one deadline is one finding, at
// the first call; the second is a related location.
func twice(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := svc.Fetch(ctx); err != nil { // want `svc.Fetch \(context.WithTimeout at svc.go:\d+\) sets a 5s timeout on a context that has at most 1s left`
		return err
	}
	return svc.Fetch(ctx)
}
