// Package discarded: a carrier's value thrown away. WithContext makes a
// new request carrying the context; called as a statement, the request
// that is sent keeps the context it was made with.
package discarded

import (
	"context"
	"net/http"
)

type call struct {
	req *http.Request
}

// bind means to give the request ctx, and gives it to a copy that is
// dropped.
func (c *call) bind(ctx context.Context) {
	c.req.WithContext(ctx) // want `the result of c.req.WithContext\(ctx\) is discarded`
}

func Head(ctx context.Context, hc *http.Client, url string) (int, error) {
	r, err := http.NewRequest(http.MethodHead, url, nil)
	if err != nil {
		return 0, err
	}
	r.WithContext(ctx) // want `the result of r.WithContext\(ctx\) is discarded`
	resp, err := hc.Do(r)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// envelope is the package's own request type; withCtx returns a new one.
type envelope struct {
	req   *http.Request
	label string
}

func (e envelope) withCtx(ctx context.Context) envelope {
	return envelope{req: e.req.WithContext(ctx), label: e.label}
}

func (e envelope) send(ctx context.Context, hc *http.Client) error {
	e.withCtx(ctx) // want `the result of e.withCtx\(ctx\) is discarded`
	resp, err := hc.Do(e.req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The near misses: the result is used, or the method keeps the context
// in its receiver and returns that for chaining.
func Get(ctx context.Context, hc *http.Client, url string) (int, error) {
	r, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	r = r.WithContext(ctx)
	resp, err := hc.Do(r)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

type builder struct {
	req *http.Request
}

func (b *builder) setContext(ctx context.Context) *builder {
	b.req = b.req.WithContext(ctx)
	return b
}

func (b *builder) send(ctx context.Context, hc *http.Client) error {
	b.setContext(ctx)
	resp, err := hc.Do(b.req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
