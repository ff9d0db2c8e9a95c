// Package facts has functions that set a timeout on the context they are
// given, and near misses.
package facts

import (
	"context"
	"time"
)

// Charge sets a 2s timeout on its caller's context.
func Charge(ctx context.Context, id string) error { // want Charge:`timeout\(0, 2s\)`
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return call(ctx, id)
}

// Pay passes its context to Charge: the timeout is set on it too.
func Pay(id string, ctx context.Context) error { // want Pay:`timeout\(1, 2s\)`
	return Charge(ctx, id)
}

// Longest keeps the longest of its timeouts.
func Longest(ctx context.Context) error { // want Longest:`timeout\(0, 5s\)`
	a, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	b, cancel2 := context.WithDeadline(ctx, time.Now().Add(5*time.Second))
	defer cancel2()
	return errs(call(a, ""), call(b, ""))
}

// detached sets a timeout on a context of its own, not its caller's.
func detached(ctx context.Context) error { // want detached:`unread\[0\]`
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return call(c, "")
}

// unknown sets a timeout whose length is not a constant.
func unknown(ctx context.Context, d time.Duration) error {
	c, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return call(c, "")
}

func call(ctx context.Context, id string) error { return ctx.Err() }

func errs(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

var _ = []any{detached, unknown}

// forwards hands its context on, as it is, to detached, which never reads
// it: it does not read it either.
func forwards(ctx context.Context) error { // want forwards:`unread\[0\]`
	return detached(ctx)
}

// The near miss: handed on to call, which may read it.
func reads(ctx context.Context) error {
	return call(ctx, "")
}

type holder struct{ ctx context.Context }

// keepsDetached only ever detaches its context.
func keepsDetached(ctx context.Context) *holder { // want keepsDetached:`detaches\[0\]`
	return &holder{ctx: context.WithoutCancel(ctx)}
}

// handsDetached hands it on to a parameter that is only detached.
func handsDetached(ctx context.Context) *holder { // want handsDetached:`detaches\[0\]`
	return keepsDetached(ctx)
}

// The near miss: kept as it is beside the detached copy.
func keepsBoth(ctx context.Context) (*holder, *holder) {
	return keepsDetached(ctx), &holder{ctx: ctx}
}
