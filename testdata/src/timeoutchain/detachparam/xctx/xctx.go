// Package xctx makes contexts that keep their parent's values alone.
package xctx

import (
	"context"
	"time"
)

type valuesOnly struct{ parent context.Context }

func (valuesOnly) Deadline() (time.Time, bool) { return time.Time{}, false }
func (valuesOnly) Done() <-chan struct{}       { return nil }
func (valuesOnly) Err() error                  { return nil }
func (v valuesOnly) Value(key any) any         { return v.parent.Value(key) }

// ValuesOnly returns a context with ctx's values and no lifetime.
func ValuesOnly(ctx context.Context) context.Context { return valuesOnly{ctx} }

type following struct{ parent context.Context }

func (following) Deadline() (time.Time, bool) { return time.Time{}, false }
func (f following) Done() <-chan struct{}     { return f.parent.Done() }
func (f following) Err() error                { return f.parent.Err() }
func (f following) Value(key any) any         { return f.parent.Value(key) }

// Following returns a context that ends with ctx, without its deadline.
func Following(ctx context.Context) context.Context { return following{parent: ctx} }
