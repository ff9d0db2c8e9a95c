// Package wrapper retries through a wrapper of its own around a retry
// library: the wrapper is a retry helper, and a POST in the closure given
// to it is retried: reported where it is sent. A GET is not.
package wrapper

import (
	"bytes"
	"net/http"

	"github.com/cenkalti/backoff/v4"
)

func withRetry(f func() error) error {
	return backoff.Retry(f, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

func Charge(c *http.Client, url string, body []byte) error { // want Charge:"key place: http\\.Client\\.Post at wrapper\\.go:\\d+"
	return withRetry(func() error {
		resp, err := c.Post(url, "application/json", bytes.NewReader(body)) // want `http.Client.Post sends POST inside a retry without an Idempotency-Key header`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

func Status(c *http.Client, url string) error {
	return withRetry(func() error {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// withRetryN takes its bound from the caller through the library's
// option: a call of it may make one attempt. Not a helper.
func withRetryN(n int, f func() error) error {
	return backoff.Retry(f, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), uint64(n-1)))
}

// Create makes one attempt through it: not reported.
func Create(c *http.Client, url string, body []byte) error {
	return withRetryN(1, func() error {
		resp, err := c.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}
