// Package svc sets its own timeouts on the contexts it receives.
package svc

import (
	"context"
	"time"
)

func call(ctx context.Context) error { return nil }

// Fetch sets a 5s timeout on the context it is given.
func Fetch(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return call(ctx)
}

// Short sets a 100ms timeout.
func Short(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	return call(ctx)
}
