// Package clienterrors: retries that go round only when the server
// refused this request with a client error (an expired token during a
// refresh, a conflict) retry no outage: no failure wave makes clients
// retry together, and a dependency that is down is not retried at all.
package clienterrors

import (
	"context"
	"net/http"
	"time"
)

type client struct {
	hc *http.Client
}

func (c *client) do(req *http.Request) (*http.Response, error) { return c.hc.Do(req) }

// CallAuthed sends again after a second when the token was refreshed
// under it (401): not reported.
func (c *client) CallAuthed(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = c.do(req)
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized {
			return resp, err
		}
		time.Sleep(time.Second)
	}
	return resp, err
}

// CallConflicted goes round at once on 409 or 412 only: not reported.
func (c *client) CallConflicted(req *http.Request) (*http.Response, error) {
	for {
		resp, err := c.do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusConflict || resp.StatusCode == http.StatusPreconditionFailed {
			resp.Body.Close()
			continue
		}
		return resp, nil
	}
}

// CallUnavailable sends again after a fixed second on 503: every client
// the outage failed retries in step. Reported.
func (c *client) CallUnavailable(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = c.do(req)
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusServiceUnavailable {
			return resp, err
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return resp, err
}

// CallAny4xx goes round on every 4xx, 429 included: reported.
func (c *client) CallAny4xx(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = c.do(req)
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode < 400 || resp.StatusCode > 499 {
			return resp, err
		}
		time.Sleep(2 * time.Second) // want `retry delay has no jitter`
	}
	return resp, err
}
