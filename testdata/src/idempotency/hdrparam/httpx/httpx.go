// Package httpx sends with the headers its caller gives, as a map of
// names to values: whether they carry an idempotency key is the caller's
// to know.
package httpx

import (
	"context"
	"io"
	"net/http"
)

// Post sets every header of the map on the request.
func Post(ctx context.Context, hc *http.Client, url string, headers map[string]string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, body)
	if err != nil {
		return nil, err
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return hc.Do(req)
}

// Patch sets them by index.
func Patch(ctx context.Context, hc *http.Client, url string, headers map[string]string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, url, body)
	if err != nil {
		return nil, err
	}
	for k, v := range headers {
		req.Header[k] = []string{v}
	}
	return hc.Do(req)
}
