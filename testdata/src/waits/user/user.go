// Package user builds on another package's helpers, known by their facts.
package user

import (
	"context"
	"time"

	"waits/facts"
)

// wait waits a fixed second through the other package's pure wait.
func wait(ctx context.Context) error { return facts.Hold(ctx, time.Second) } // want wait:`waits\(pure, fixed\)` wait:"checksctx"

// backoff is random through the other package's jitter.
func backoff(d time.Duration) time.Duration { return facts.Jitter(d) } // want backoff:"random"

// done checks its context through the other package's check.
func done(ctx context.Context) bool { return facts.Stopped(ctx, nil) } // want done:"checksctx"

// other calls something of the other package that does none of it.
func other(ctx context.Context) bool { return ctx != nil }

var _ = []any{wait, backoff, done, other}

// clamp returns the other package's cap of its input.
func clamp(d time.Duration) time.Duration { return facts.Clamp(d, time.Minute) } // want clamp:`caps\(\[0\], const\)` clamp:`delay\(exponential=false, capped=true\)`

var _ = clamp
