// Package hdrcall: headers set from a call's result (req.Header =
// headers(key)) are headers the model cannot read: the request may carry
// a key, so no finding. Headers it can read that lack one are reported.
package hdrcall

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net/http"
	"time"
)

func headers(key string) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Idempotency-Key", key)
	return h
}

// Submit sends the caller's key on every attempt, through a helper.
func Submit(ctx context.Context, c *http.Client, url, key string, body []byte) error { // want Submit:"key place: http.Client.Do at hdrcall\\.go:\\d+"
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header = headers(key)
		if resp, err := c.Do(req); err == nil {
			return resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Second)):
		}
	}
	return context.DeadlineExceeded
}

// The near miss: the headers are a literal with no key.
func SubmitPlain(ctx context.Context, c *http.Client, url string, body []byte) error { // want SubmitPlain:"key place: http.Client.Do at hdrcall\\.go:\\d+"
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header = http.Header{"Content-Type": {"application/json"}}
		if resp, err := c.Do(req); err == nil { // want `http.Client.Do sends POST inside a retry without an Idempotency-Key header`
			return resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Second)):
		}
	}
	return context.DeadlineExceeded
}
