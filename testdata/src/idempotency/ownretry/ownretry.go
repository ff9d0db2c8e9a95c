// Package ownretry: helpers whose own retry sends a request with the
// method or the headers their caller gives. The request is judged at the
// call, where they are known, even when the call is in no retry.
package ownretry

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"
)

type client struct{ hc *http.Client }

// doRetry retries a send with the method it is given.
func (c *client) doRetry(ctx context.Context, method, url string, body io.Reader) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, method, url, body)
		if err != nil {
			return err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// write passes its own method on: decided by its callers.
func (c *client) write(ctx context.Context, method, url string) error {
	return c.doRetry(ctx, method, url, nil)
}

// Create posts through the helper's retry: reported at the call.
func (c *client) Create(ctx context.Context) error { // want Create:"key place: \\(\\*client\\).write at ownretry\\.go:\\d+"
	return c.write(ctx, http.MethodPost, "https://api.example/things") // want `\(\*client\).write sends POST \(http.Client.Do at ownretry.go:\d+, retried by its retry loop at ownretry.go:\d+, 3 attempts\) inside a retry without an Idempotency-Key header`
}

// Read gets through it: not reported.
func (c *client) Read(ctx context.Context) error {
	return c.write(ctx, http.MethodGet, "https://api.example/things")
}

// postRetry retries a POST with the caller's headers.
func (c *client) postRetry(ctx context.Context, url string, h http.Header) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header = h
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Keyed gives the key: not reported.
func (c *client) Keyed(ctx context.Context, key string) error { // want Keyed:"key place: \\(\\*client\\).postRetry at ownretry\\.go:\\d+"
	return c.postRetry(ctx, "https://api.example/things", http.Header{"Idempotency-Key": {key}})
}

// Unkeyed gives headers without it: reported at the call.
func (c *client) Unkeyed(ctx context.Context) error { // want Unkeyed:"key place: \\(\\*client\\).postRetry at ownretry\\.go:\\d+"
	return c.postRetry(ctx, "https://api.example/things", http.Header{"Accept": {"application/json"}}) // want `\(\*client\).postRetry sends POST .* inside a retry without an Idempotency-Key header`
}

// A second POST through the same helper's retry is the same behaviour:
// reported once, at the first call of the package (Create).
func (c *client) Update(ctx context.Context) error { // want Update:"key place: \\(\\*client\\).write at ownretry\\.go:\\d+"
	return c.write(ctx, http.MethodPost, "https://api.example/things/1")
}

type policy struct{ MaxRetries int }

type tuned struct {
	hc     *http.Client
	policy policy
}

// doTuned retries as many times as its policy says: a number the model
// does not know (it may be none).
func (t *tuned) doTuned(ctx context.Context, method, url string) error {
	for i := 0; i <= t.policy.MaxRetries; i++ {
		req, err := http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return err
		}
		resp, err := t.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Posts through a retry of an unknown number of attempts: no finding.
func (t *tuned) Create(ctx context.Context) error { // want Create:"key place: \\(\\*tuned\\).doTuned at ownretry\\.go:\\d+"
	return t.doTuned(ctx, http.MethodPost, "https://api.example/things")
}
