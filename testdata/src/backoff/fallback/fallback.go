// Package fallback sets a go-retryablehttp client's Backoff to a function
// of its own that honours Retry-After and otherwise falls back to the
// library's DefaultBackoff: on that path the delay has no jitter, as
// DefaultBackoff set directly has (reported, with no fix: the jitter
// belongs in the function). A function that falls back to a jittered
// backoff, or adds a random part itself, is not reported.
package fallback

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

func honour(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			return time.Duration(s) * time.Second
		}
	}
	return retryablehttp.DefaultBackoff(min, max, attempt, resp)
}

func honourJittered(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			return time.Duration(s) * time.Second
		}
	}
	return retryablehttp.LinearJitterBackoff(min, max, attempt, resp)
}

func spread(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	d := retryablehttp.DefaultBackoff(min, max, attempt, resp)
	return time.Duration(rand.Int64N(int64(d) + 1))
}

func Fallback(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.Backoff = honour // want `retryablehttp.Client.Get waits without jitter \(Backoff: honour, which falls back to DefaultBackoff\)`
	return c.Get(url)
}

func Jittered(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.Backoff = honourJittered
	return c.Get(url)
}

func Spread(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.Backoff = spread
	return c.Get(url)
}
