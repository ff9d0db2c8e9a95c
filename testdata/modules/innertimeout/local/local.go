// Package local is a helper package of this module that caps every caller's
// context at 5s.
package local

import (
	"context"
	"time"
)

func call(ctx context.Context) error { return ctx.Err() }

// Probe gives up after 5s, or sooner under a caller's shorter deadline.
func Probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return call(ctx)
}
