// Package svc starts services that live until they are stopped: the
// context given to StartAsync is the root of the service's own
// lifetime, kept with its cancel function.
package svc

import "context"

// Service is started asynchronously and stopped by its own Stop.
type Service interface {
	StartAsync(ctx context.Context) error
	Stop()
}

// Basic is the package's one Service.
type Basic struct {
	ctx    context.Context
	cancel context.CancelFunc
	run    func(context.Context)
}

func (b *Basic) StartAsync(parent context.Context) error {
	b.ctx, b.cancel = context.WithCancel(parent)
	go b.run(b.ctx)
	return nil
}

func (b *Basic) Stop() { b.cancel() }

// Loader loads under the context it is given.
type Loader interface {
	Load(ctx context.Context) error
}

// Remote is the package's one Loader: it waits under ctx.
type Remote struct{ done chan struct{} }

func (r *Remote) Load(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-r.done:
		return nil
	}
}

// Traced wraps any Service: its calls go to the one it holds.
type Traced struct{ Service }

// Conn keeps the context it derives, but waits under it before it
// returns: its caller's context bounds that wait.
type Conn struct {
	ctx    context.Context
	cancel context.CancelFunc
	ready  chan struct{}
}

func (c *Conn) Open(parent context.Context) error {
	c.ctx, c.cancel = context.WithCancel(parent)
	return c.handshake(c.ctx)
}

func (c *Conn) handshake(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ready:
		return nil
	}
}
