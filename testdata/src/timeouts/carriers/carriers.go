// Package carriers: functions that only put their context into the
// request they return (CarrierFact), and near misses that wait under it.
package carriers

import (
	"context"
	"net/http"
)

// The context goes into the clone, which is returned with a body set.
func cloneWith(req *http.Request, ctx context.Context) (*http.Request, error) { // want cloneWith:`carrier\(1\)`
	c := req.Clone(ctx)
	if req.GetBody != nil {
		b, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		c.Body = b
	}
	return c, nil
}

// Through a carrier of the package.
func cloneAgain(ctx context.Context, req *http.Request) (*http.Request, error) { // want cloneAgain:`carrier\(0\)`
	c, err := cloneWith(req, ctx)
	if err != nil {
		return nil, err
	}
	c.Header.Set("X-Trace", "1")
	return c, nil
}

// Made and returned at once: the value is not assigned, so nothing says
// where it goes.
func build(ctx context.Context, url string) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
}

// Near miss: the clone is sent here, under the context.
func cloneAndSend(ctx context.Context, cl *http.Client, req *http.Request) (*http.Response, error) {
	c := req.Clone(ctx)
	return cl.Do(c)
}

// Near miss: the context is also waited on.
func cloneAndWait(ctx context.Context, req *http.Request) (*http.Request, error) {
	c := req.Clone(ctx)
	<-ctx.Done()
	return c, ctx.Err()
}

// A request type of the package that wraps one of net/http.
type wrapped struct {
	inner *http.Request
	tries int
}

// withContext makes a new wrapper whose request carries ctx: the value
// is returned whole, built around the clone.
func (w *wrapped) withContext(ctx context.Context) *wrapped { // want withContext:`carrier\(0\)`
	return &wrapped{inner: w.inner.WithContext(ctx), tries: w.tries}
}

// setContext stores ctx in the receiver itself and returns it for
// chaining: no new value, the context is kept where it is used.
func (w *wrapped) setContext(ctx context.Context) *wrapped {
	w.inner = w.inner.WithContext(ctx)
	return w
}
