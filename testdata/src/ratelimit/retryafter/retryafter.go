// Package retryafter holds client helpers used by another package.
package retryafter

import (
	"net/http"
	"strconv"
	"time"
)

// Delay parses the response's Retry-After (seconds), or returns def.
func Delay(resp *http.Response, def time.Duration) time.Duration {
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		return time.Duration(s) * time.Second
	}
	return def
}

// Retryable tells 429 apart from success by name, and 5xx by a range,
// which names none of them.
func Retryable(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500
}

// Throttled tells 503 apart on the response it is given.
func Throttled(resp *http.Response) bool {
	return resp.StatusCode == http.StatusServiceUnavailable
}

// Call sends its own request and turns every failure into an error: what
// it tests is its own business.
func Call(c *http.Client, url string) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return http.ErrNotSupported
	}
	return nil
}
