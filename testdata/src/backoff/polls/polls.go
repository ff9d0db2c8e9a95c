// Package polls: a loop that goes round only after every call of the pass
// succeeded polls a state; it does not retry a failure. A response handed
// to a call that returns only an error, and accepted by it, is judged:
// a later look at it (how long the server asks to wait) decides nothing.
package polls

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"
)

type registration struct{ State string }

// decode checks the status and reads the body into v.
func decode(resp *http.Response, v *registration) error {
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New(resp.Status)
	}
	v.State = "Registered"
	return nil
}

// retryAfter waits what the response's Retry-After asks, if it asks, and
// reports whether it waited.
func retryAfter(resp *http.Response, done <-chan struct{}) bool {
	secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || secs <= 0 {
		return false
	}
	t := time.NewTimer(time.Duration(secs) * time.Second)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
		return false
	}
}

// Polls a registration until it is done: every error returns, and the
// loop goes round only after a response decode accepted.
func waitRegistered(ctx context.Context, c *http.Client, url string) error {
	for {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		var reg registration
		if err := decode(resp, &reg); err != nil {
			return err
		}
		if reg.State == "Registered" {
			return nil
		}
		if !retryAfter(resp, ctx.Done()) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(5 * time.Second):
			}
		}
	}
}

func retryable(resp *http.Response) bool { return resp.StatusCode >= 500 }

// The near miss: no call accepted the response; the predicate over it
// decides whether to go round: a retry of a failed status.
func fetch(ctx context.Context, c *http.Client, url string) (*registration, error) {
	for i := 0; i < 5; i++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if !retryable(resp) {
			var reg registration
			return &reg, decode(resp, &reg)
		}
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second): // want `retry delay has no jitter`
		}
	}
	return nil, errors.New("gave up")
}

// The near miss: the checking call failed, and its failure goes round.
func fetchChecked(ctx context.Context, c *http.Client, url string) (*registration, error) {
	for i := 0; i < 5; i++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		var reg registration
		if err := decode(resp, &reg); err == nil {
			return &reg, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second): // want `retry delay has no jitter`
		}
	}
	return nil, errors.New("gave up")
}

func readBody(resp *http.Response) ([]byte, error) { return nil, resp.Body.Close() }

// The near miss: a call that returns data reads the response, it does not
// judge it; the predicate after it decides the retry.
func fetchRead(ctx context.Context, c *http.Client, url string) ([]byte, error) {
	for i := 0; i < 5; i++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		body, err := readBody(resp)
		if err != nil {
			return nil, err
		}
		if !retryable(resp) {
			return body, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second): // want `retry delay has no jitter`
		}
	}
	return nil, errors.New("gave up")
}
