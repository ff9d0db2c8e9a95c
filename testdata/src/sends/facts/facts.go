// Package facts has functions that send HTTP requests whose method is not
// known to be idempotent, functions that build requests, and near misses.
package facts

import (
	"bytes"
	"context"
	"net/http"
)

// Charge posts: not idempotent.
func Charge(ctx context.Context, c *http.Client, body []byte) (*http.Response, error) { // want Charge:`sends\(POST\)`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example.com/charges", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// Send sends with the method its caller gives: not known here, the
// parameter it comes from is.
func Send(c *http.Client, method, url string) (*http.Response, error) { // want Send:`sends\(param 1\)`
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// Read gets: idempotent, no fact.
func Read(c *http.Client, url string) (*http.Response, error) {
	return c.Get(url)
}

// Replace builds a PUT request.
func Replace(ctx context.Context, url string) (*http.Request, error) { // want Replace:`request\(PUT\)`
	return http.NewRequestWithContext(ctx, http.MethodPut, url, nil)
}

// Submit sends through Charge: the send happens in a called function.
func Submit(ctx context.Context, body []byte) error { // want Submit:`sends\(POST\)`
	resp, err := Charge(ctx, http.DefaultClient, body)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
