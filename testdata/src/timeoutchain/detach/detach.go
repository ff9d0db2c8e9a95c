// Package detach: contexts made from Background on purpose, and one that
// drops the caller's.
package detach

import (
	"context"
	"errors"
	"time"
)

func call(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.New("down")
}

type conn struct{}

func (c *conn) Close(ctx context.Context) error { return nil }

// Cleanup deferred past the caller's deadline gets its own context.
func withCleanup(ctx context.Context, c *conn) error {
	defer c.Close(context.Background())
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.Close(cctx)
	}()
	return call(ctx)
}

type pool struct {
	destroy func(*conn)
}

// A hook stored in a field runs later, when the caller's context may be
// long gone.
func newPool(ctx context.Context) *pool {
	p := &pool{}
	p.destroy = func(c *conn) {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = c.Close(cctx)
	}
	return p
}

// detached keeps ctx's values without its cancellation: a type made to
// detach.
type detached struct {
	context.Context
	values context.Context
}

func (d detached) Value(key any) any { return d.values.Value(key) }

func detach(ctx context.Context) context.Context {
	return detached{Context: context.Background(), values: ctx}
}

// Dropping the caller's context in a plain call is still reported.
func drops(ctx context.Context) error {
	return call(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}

// Background kept only to compare with: no context is dropped.
func isBackground(ctx context.Context) bool {
	bg := context.Background()
	return ctx == bg
}

// Background kept in a variable and then used: dropped.
func dropsThroughVariable(ctx context.Context) error {
	bg := context.Background() // want `context.Background\(\) drops the deadline and cancellation of ctx`
	return call(bg)
}

type hooked struct{ onClose []func() }

// OnClose keeps f to run when the connection closes, after ctx is gone.
func (h *hooked) OnClose(f func()) { h.onClose = append(h.onClose, f) }

// runNow runs f in place.
func runNow(f func()) { f() }

// A hook runs when the caller's ctx may long be done: it cannot use ctx.
func registersHook(ctx context.Context, h *hooked) error {
	h.OnClose(func() { _ = call(context.Background()) })
	return call(ctx)
}

// The near miss: runNow runs the closure while ctx is live.
func runsInPlace(ctx context.Context) error {
	var err error
	runNow(func() { err = call(context.Background()) }) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	return err
}
