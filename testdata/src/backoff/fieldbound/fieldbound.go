// Package fieldbound: a retry whose attempt counter is compared both with
// a constant (`i > 0`: not before the first attempt) and with a
// configured field (`i <= c.policy.MaxRetries`) is judged like any other.
package fieldbound

import (
	"net/http"
	"time"
)

type policy struct {
	MaxRetries int
	Delay      time.Duration
}

type client struct {
	hc     *http.Client
	policy policy
}

func (c *client) send(req *http.Request) (*http.Response, error) { return c.hc.Do(req) }

// Do waits the configured delay before every attempt but the first:
// reported.
func (c *client) Do(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i <= c.policy.MaxRetries; i++ {
		if i > 0 {
			time.Sleep(c.policy.Delay) // want `retry delay has no jitter`
		}
		resp, err = c.send(req)
		if err != nil || resp.StatusCode >= 500 {
			continue
		}
		return resp, nil
	}
	return resp, err
}

// Pages fetches the next page after every success, pausing between
// pages: no retry.
func (c *client) Pages(reqs func(int) *http.Request) error {
	for i := 0; i <= c.policy.MaxRetries; i++ {
		if i > 0 {
			time.Sleep(c.policy.Delay)
		}
		resp, err := c.send(reqs(i))
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}
