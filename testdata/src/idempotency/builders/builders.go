// Package builders makes its requests in a helper of its own that takes
// the method from its caller (and returns nil with the error when it
// fails): a retried charge through it is a POST without a key, reported
// at the send; a retried read through the same helper is a GET, not
// reported. A builder that sets the key itself is not reported either.
package builders

import (
	"bytes"
	"context"
	"net/http"
	"time"
)

type Client struct {
	hc   *http.Client
	base string
}

func (c *Client) newRequest(ctx context.Context, method, path string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

func (c *Client) Charge(ctx context.Context, body []byte) (*http.Response, error) { // want Charge:"key place: http\\.Client\\.Do at builders\\.go:\\d+"
	var lastErr error
	for i := 0; i < 3; i++ {
		req, err := c.newRequest(ctx, http.MethodPost, "/charges", body)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req) // want `http.Client.Do sends POST inside a retry without an Idempotency-Key header`
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return nil, lastErr
}

func (c *Client) Get(ctx context.Context) (*http.Response, error) {
	var lastErr error
	for i := 0; i < 3; i++ {
		req, err := c.newRequest(ctx, http.MethodGet, "/charges", nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return nil, lastErr
}

func (c *Client) newKeyedRequest(ctx context.Context, method, path, key string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", key)
	return req, nil
}

// Refund makes its key once and the builder sets it: not reported.
func (c *Client) Refund(ctx context.Context, key string, body []byte) (*http.Response, error) { // want Refund:"key place: http\\.Client\\.Do at builders\\.go:\\d+"
	var lastErr error
	for i := 0; i < 3; i++ {
		req, err := c.newKeyedRequest(ctx, http.MethodPost, "/refunds", key, body)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return nil, lastErr
}
