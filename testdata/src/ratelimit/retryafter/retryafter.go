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

// Retryable tells 429 and 5xx apart from success.
func Retryable(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500
}
