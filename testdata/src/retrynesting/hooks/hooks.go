// Package hooks: a closure handed to something that keeps it (a hook, a
// callback, a timer) runs later, not in the attempt that writes it.
package hooks

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"retrynesting/hooks/reg"
)

func call(ctx context.Context) error { return errors.New("down") }

func jittered(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

// flush retries on its own.
func flush(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

type conn struct {
	onClose []func()
	closer  func() error
	reg     *reg.Registry
}

func dial(ctx context.Context) (*conn, error) { return &conn{}, call(ctx) }

// OnClose keeps f to run when the connection closes.
func (c *conn) OnClose(f func()) { c.onClose = append(c.onClose, f) }

// locked runs f in place.
func locked(f func()) { f() }

// A hook given to a method that keeps it.
func hookMethod(ctx context.Context) (*conn, error) {
	var err error
	for i := 0; i < 3; i++ {
		var c *conn
		if c, err = dial(ctx); err == nil {
			c.OnClose(func() { _ = flush(ctx) })
			return c, nil
		}
		time.Sleep(jittered(time.Second))
	}
	return nil, err
}

// A hook appended to a field, a closure stored through a local variable,
// a timer's function and another package's registry.
func hookStores(ctx context.Context) (*conn, error) {
	var err error
	for i := 0; i < 3; i++ {
		var c *conn
		if c, err = dial(ctx); err == nil {
			c.onClose = append(c.onClose, func() { _ = flush(ctx) })
			cl := func() error { return flush(ctx) }
			c.closer = cl
			time.AfterFunc(time.Minute, func() { _ = flush(ctx) })
			c.reg.On("flush", func() error { return flush(ctx) })
			return c, nil
		}
		time.Sleep(jittered(time.Second))
	}
	return nil, err
}

// The near miss: locked runs the closure in place.
func inPlace(ctx context.Context) (*conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching flush`
		var c *conn
		if c, err = dial(ctx); err == nil {
			locked(func() { err = flush(ctx) })
			if err == nil {
				return c, nil
			}
		}
		time.Sleep(jittered(time.Second))
	}
	return nil, err
}

// The near miss: a local closure that is stored and also called here
// (counted once: where it is written in the attempt).
func storedAndCalled(ctx context.Context) (*conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching flush, which retries: retry loop \(3 attempts\) at hooks.go:21: up to 9 downstream calls`
		var c *conn
		if c, err = dial(ctx); err == nil {
			cl := func() error { return flush(ctx) }
			c.closer = cl
			if err = cl(); err == nil {
				return c, nil
			}
		}
		time.Sleep(jittered(time.Second))
	}
	return nil, err
}

// The near miss: the other package's Now runs the closure at once.
func registryNow(ctx context.Context) (*conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching flush`
		var c *conn
		if c, err = dial(ctx); err == nil {
			if err = c.reg.Now(func() error { return flush(ctx) }); err == nil {
				return c, nil
			}
		}
		time.Sleep(jittered(time.Second))
	}
	return nil, err
}
