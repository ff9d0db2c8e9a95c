// Package asserts: retries that pick out their failure with a type
// assertion on the error (`e, ok := err.(*apiError); ok && e.Code == ...`),
// and a retry counter that is compared both with a constant (the first
// pass) and with a configured limit.
package asserts

import (
	"errors"
	"net/http"
	"time"
)

type apiError struct{ Code string }

func (e *apiError) Error() string { return e.Code }

type staleError struct{}

func (staleError) Error() string { return "stale connection" }

type client struct {
	hc      *http.Client
	retries int
}

func (c *client) send(req *http.Request) error   { return &apiError{Code: "LimitExceeded"} }
func (c *client) rewind(req *http.Request) error { return nil }

// SendLimited waits a fixed second when the server says the rate limit
// was exceeded, as many times as configured; the body is rewound before
// every pass but the first: the fixed wait is reported.
func (c *client) SendLimited(req *http.Request, retryable bool) error {
	var limit int
	if retryable {
		limit = max(c.retries, 0)
	}
	var err error
	for idx := 0; idx <= limit; idx++ {
		if idx > 0 {
			if err = c.rewind(req); err != nil {
				return err
			}
		}
		err = c.send(req)
		if e, ok := err.(*apiError); ok && e.Code == "LimitExceeded" && idx < limit {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		return err
	}
	return err
}

// Pages goes round after a success, for the next page: no retry, nothing
// reported, whatever it waits.
func (c *client) Pages(req *http.Request, limit int) error {
	for idx := 0; idx <= limit; idx++ {
		if idx > 0 {
			if err := c.rewind(req); err != nil {
				return err
			}
		}
		if err := c.send(req); err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
	return nil
}

// SendFresh resends at once only on a stale pooled connection, picked
// out by its type: not reported.
func (c *client) SendFresh(req *http.Request) error {
	for i := 0; i < 3; i++ {
		err := c.send(req)
		if _, ok := err.(staleError); ok {
			continue
		}
		return err
	}
	return errors.New("no fresh connection")
}

// SendAnyBut resends at once on every failure but an API error: reported.
func (c *client) SendAnyBut(req *http.Request) error {
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		err := c.send(req)
		if err == nil {
			return nil
		}
		if _, ok := err.(*apiError); ok {
			return err
		}
	}
	return errors.New("gave up")
}
