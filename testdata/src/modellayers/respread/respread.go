// Package retryafter holds client helpers used by another package.
package respread

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// Delay parses the response's Retry-After (seconds), or returns def.
func Delay(resp *http.Response, def time.Duration) time.Duration { // want Delay:`respread\(reads Retry-After\)`
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		return time.Duration(s) * time.Second
	}
	return def
}

// Retryable tells 429 apart from success by name, and 5xx by a range,
// which names none of them.
func Retryable(code int) bool { // want Retryable:`respread\(tests \$0 \[429\]\)`
	return code == http.StatusTooManyRequests || code >= 500
}

// Throttled tells 503 apart on the response it is given.
func Throttled(resp *http.Response) bool { // want Throttled:`respread\(tests \$0 \[503\]\)`
	return resp.StatusCode == http.StatusServiceUnavailable
}

// Call tests its own response: no fact.
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

// Pacer is told of responses by code this package cannot see, and can
// make its caller wait.
type Pacer interface {
	Observe(resp *http.Response)
	Wait(ctx context.Context) error
}

// Notify hands the response to a pacer, which may read any header.
func Notify(p Pacer, resp *http.Response) { // want Notify:`respread\(reads \*\)`
	p.Observe(resp)
}

// Hinted hands it to a function that says how long to wait.
func Hinted(hint func(http.Header) time.Duration, resp *http.Response) time.Duration { // want Hinted:`respread\(reads \*\)`
	return hint(resp.Header)
}

// Logger only observes.
type Logger interface{ Log(resp *http.Response) }

// Logged hands the response to a logger: no header read.
func Logged(l Logger, resp *http.Response) {
	l.Log(resp)
}

// Print hands it to a function of any values: no header read.
func Print(printf func(string, ...any), resp *http.Response) {
	printf("%v", resp)
}
