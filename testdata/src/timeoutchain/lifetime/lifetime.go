// Package lifetime hands context.Background() to calls whose context is
// the root of a lifetime they keep, and, near misses, to calls that
// wait under it.
package lifetime

import (
	"context"
	"net"
	"time"

	"timeoutchain/lifetime/svc"
)

type module struct {
	service svc.Service
	loader  svc.Loader
	ctx     context.Context
	stop    context.CancelFunc
}

// start gives the service a lifetime of its own: it runs until its Stop,
// not until the caller's request ends. Not reported.
func (m *module) start(ctx context.Context) error {
	if err := m.service.StartAsync(context.Background()); err != nil {
		return err
	}
	return m.loader.Load(ctx)
}

// open keeps the cancel of what it derives: the same, for a function of
// this package. Not reported.
func (m *module) open(parent context.Context) error {
	m.ctx, m.stop = context.WithCancel(parent)
	return nil
}

func (m *module) reopen(ctx context.Context) error {
	if err := m.open(context.Background()); err != nil {
		return err
	}
	return m.loader.Load(ctx)
}

// load waits under Background while ctx is in scope: reported.
func (m *module) load(ctx context.Context) error {
	return m.loader.Load(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}

// scoped derives a context whose cancel it keeps in a local and defers:
// the call's own scope, no lifetime of its own.
func scoped(parent context.Context, l svc.Loader) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	return l.Load(ctx)
}

// loadScoped is reported: scoped waits under what it is given.
func (m *module) loadScoped(ctx context.Context) error {
	return scoped(context.Background(), m.loader) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}

// dial opens a connection that waits for its handshake under the context
// it is given: reported.
func dial(ctx context.Context, c *svc.Conn) error {
	return c.Open(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}

// pool is built by NewPool, whose context is the pool's lifetime: the
// cancel of the context it derives in place is kept in the literal.
type pool struct {
	ctx    context.Context
	cancel context.CancelFunc
	conn   net.Conn
}

// NewPool dials while it builds the pool: its context is the lifetime of
// what it builds, not a deadline for building it. Not reported.
func NewPool(ctx context.Context, addr string) (*pool, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &pool{ctx: ctx, cancel: cancel, conn: conn}
	go p.run()
	return p, nil
}

func (p *pool) run() { <-p.ctx.Done() }

// serve starts a pool for the process: not reported.
func serve(ctx context.Context, addr string) (*pool, error) {
	p, err := NewPool(context.Background(), addr)
	if err != nil {
		return nil, err
	}
	return p, p.conn.SetDeadline(time.Time{})
}

// Near misses: the derived context waited under in place, and a cancel
// that is also called.
func newWarmPool(ctx context.Context, addr string) (*pool, error) {
	conn, err := net.Dial("tcp", addr) // want `net.Dial takes no context, so the deadline and cancellation of ctx never reach it`
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &pool{ctx: ctx, cancel: cancel, conn: conn}
	if err := p.warm(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *pool) warm(ctx context.Context) error { return ctx.Err() }

func newCheckedPool(ctx context.Context, addr string) (*pool, error) {
	conn, err := net.Dial("tcp", addr) // want `net.Dial takes no context, so the deadline and cancellation of ctx never reach it`
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &pool{ctx: ctx, cancel: cancel, conn: conn}
	if p.conn == nil {
		cancel()
		return nil, net.ErrClosed
	}
	return p, nil
}
