// Package transport sends the API's requests and turns refusals into
// apierrs.Error, whose Code is the response's status.
package transport

import (
	"context"
	"io"
	"net/http"

	"backoff/statusfields/apierrs"
)

// Get fetches url.
func Get(ctx context.Context, hc *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 400 {
		return &apierrs.Error{Code: resp.StatusCode, Detail: string(body)}
	}
	return nil
}
