// Package failover: a loop whose every pass asks another instance (the
// call that builds its input advances the field that picks the instance,
// FieldsFact) fails over; it does not re-send to the instance that failed.
package failover

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"backoff/failover/endpoints"
)

// backend stands for the instances an attempt reaches.
var backend interface {
	Query(ctx context.Context, addr string) error
}

func query(ctx context.Context, addr string) error { return backend.Query(ctx, addr) }

func querySeq(ctx context.Context, addr string, seq int) error { return errors.New("down") }

// Each attempt goes to the next instance of the ring: a fail-over.
func lookup(ctx context.Context, ring *endpoints.Ring) error {
	retries := 0
retry:
	addr := ring.Next()
	if err := query(ctx, addr); err != nil {
		retries++
		if retries < 3 {
			goto retry
		}
		return err
	}
	return nil
}

// The same fail-over written as a for loop, the instance picked inline.
func lookupFor(ctx context.Context, ring *endpoints.Ring) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = query(ctx, ring.Next()); err == nil {
			return nil
		}
	}
	return err
}

// The near miss: the preferred instance is asked again at once; the call
// that moves a counter moves nothing that picks the instance.
func lookupPrimary(ctx context.Context, ring *endpoints.Ring) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		if err = querySeq(ctx, ring.Primary(), ring.Seq()); err == nil {
			return nil
		}
	}
	return err
}

type client struct {
	servers []string
	cur     int
}

// server returns the current server.
func (c *client) server() string { return c.servers[c.cur] }

// failed moves to the next server when the current one failed.
func (c *client) failed() { c.cur = (c.cur + 1) % len(c.servers) }

// A method of this package moves the index that picks the server: the
// next pass goes elsewhere.
func (c *client) call(ctx context.Context) error {
	var err error
	for i := 0; i < len(c.servers); i++ {
		if err = query(ctx, c.server()); err == nil {
			return nil
		}
		c.failed()
	}
	return err
}

// The near miss: nothing moves the index; the same server is asked again.
func (c *client) callAgain(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		if err = query(ctx, c.server()); err == nil {
			return nil
		}
	}
	return err
}

// The near miss: with no counted bound, the ring comes round to the
// instances that failed, again and again, at once.
func lookupForever(ctx context.Context, ring *endpoints.Ring) error {
	for { // want `retry loop tries again at once after a failure`
		if err := query(ctx, ring.Next()); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

type pool struct {
	nodes []string
	at    int
}

func (p *pool) advance() { p.at = (p.at + 1) % len(p.nodes) }

// take returns the current node and moves on, through advance: its fact
// says it writes what it picks by.
func (p *pool) take() string {
	n := p.nodes[p.at]
	p.advance()
	return n
}

// Each attempt takes another node.
func (p *pool) call(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = query(ctx, p.take()); err == nil {
			return nil
		}
	}
	return err
}

type node struct{ base *url.URL }

type cluster struct {
	hc    *http.Client
	nodes []*node
	next  int
	tries int
	pause time.Duration
}

func (c *cluster) pick() *node {
	n := c.nodes[c.next%len(c.nodes)]
	c.next++
	return n
}

// aim points the request at a node: it writes through its parameter.
func aim(req *http.Request, base *url.URL) {
	req.URL.Host = base.Host
	req.Host = base.Host
}

// note only reads the request.
func note(req *http.Request, base *url.URL) string { return req.URL.Path + base.Host }

// Each attempt is aimed, through a helper, at the next node: a fail-over.
func (c *cluster) do(req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i < c.tries; i++ {
		n := c.pick()
		aim(req, n.base)
		var resp *http.Response
		resp, err = c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(c.pause)
	}
	return nil, err
}

// The near miss: the helper only reads the request, which goes to the
// same place every pass.
func (c *cluster) doNoted(req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i < c.tries; i++ {
		n := c.pick()
		_ = note(req, n.base)
		var resp *http.Response
		resp, err = c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(c.pause) // want `retry delay has no jitter`
	}
	return nil, err
}
