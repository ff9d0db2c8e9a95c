// Package options: request options applied through function values may
// set any header, the key included: the headers are not known.
package options

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net/http"
	"time"
)

type option func(*http.Request)

func withKey(key string) option {
	return func(r *http.Request) { r.Header.Set("Idempotency-Key", key) }
}

type client struct{ hc *http.Client }

func pause() time.Duration { return time.Duration(rand.Int64N(int64(time.Second))) }

// Each attempt applies the caller's options to its request.
func (c *client) sendWith(ctx context.Context, url string, body []byte, opts ...option) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		for _, o := range opts {
			o(req)
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(pause())
	}
	return nil, lastErr
}

func (c *client) refund(ctx context.Context, url, key string) (*http.Response, error) {
	return c.sendWith(ctx, url, nil, withKey(key))
}

// Near miss: the same retry with no function value touching the request.
func (c *client) send(ctx context.Context, url string, body []byte) (*http.Response, error) { // want send:"key place: http\\.Client\\.Do at options\\.go:\\d+"
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req) // want `sends POST inside a retry without an Idempotency-Key header`
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(pause())
	}
	return nil, lastErr
}

type logger interface{ Debug(msg string, args ...any) }

type observer interface {
	Observe(req *http.Request, resp *http.Response)
}

// Near miss: a logger that takes anything, and an observer handed the
// request after it was sent, set nothing on what is sent.
func (c *client) sendLogged(ctx context.Context, url string, log logger, obs observer) (*http.Response, error) { // want sendLogged:"key place: http\\.Client\\.Do at options\\.go:\\d+"
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return nil, err
		}
		log.Debug("sending", "req", req)
		resp, err := c.hc.Do(req) // want `sends POST inside a retry without an Idempotency-Key header`
		obs.Observe(req, resp)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(pause())
	}
	return nil, lastErr
}
