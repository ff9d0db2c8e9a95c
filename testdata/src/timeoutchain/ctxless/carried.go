package ctxless

import (
	"context"
	"net"
)

// Request carries the context its user sets for its work.
type Request struct {
	ctx  context.Context
	Host string
}

func (r *Request) Context() context.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

// SetContext gives the request another context.
func (r *Request) SetContext(ctx context.Context) *Request {
	r.ctx = ctx
	return r
}

// Resolve is work of the request, under no context: reported, with the
// request's context as the one to pass.
func (r *Request) Resolve() ([]string, error) {
	return net.LookupHost(r.Host) // want `net.LookupHost takes no context, so the deadline and cancellation of r.Context\(\) never reach it`
}

// Client's context is its lifetime, set when it was made: no value's
// user sets it. Not a request's context; not reported.
type Client struct {
	ctx  context.Context
	Host string
}

func (c *Client) Context() context.Context { return c.ctx }

func (c *Client) Resolve() ([]string, error) {
	return net.LookupHost(c.Host)
}
