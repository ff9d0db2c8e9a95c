// Package lifetime hands context.Background() to calls whose context is
// the root of a lifetime they keep, and, near misses, to calls that
// wait under it.
package lifetime

import (
	"context"

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
