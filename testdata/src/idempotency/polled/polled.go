// Package polled asks a POST-only API for a zone until the zone is
// active. When every failure of the query ends the retry (the library's
// Permanent marker), the query is made again only after it answered: a
// poll of its answer, whose outcome was never unknown, and no key is
// asked for. When a failure of the query can go round, it is a resend.
package polled

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v5"
)

type Client struct{ HTTP *http.Client }

type Zone struct{ Status string }

// find asks for a zone; a failed send or a failure status is an error.
func (c *Client) find(ctx context.Context, name string) (*Zone, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://dns.example/zones/find", bytes.NewReader([]byte(name)))
	if err != nil {
		return nil, err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("find %s: %s", name, resp.Status)
	}
	return &Zone{Status: resp.Header.Get("Zone-Status")}, nil
}

// send hands back the response; its status is read by the caller.
func (c *Client) send(ctx context.Context, name string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://dns.example/zones/find", bytes.NewReader([]byte(name)))
	if err != nil {
		return nil, err
	}
	return c.HTTP.Do(req)
}

func policy() backoff.RetryOption {
	return backoff.WithBackOff(backoff.NewExponentialBackOff())
}

// Active polls: a failed query ends the retry, only an inactive zone
// goes round. Not reported.
func (c *Client) Active(ctx context.Context, name string) (*Zone, error) {
	operation := func() (*Zone, error) {
		z, err := c.find(ctx, name)
		if err != nil {
			return nil, backoff.Permanent(err)
		}
		if z.Status != "active" {
			return nil, errors.New("zone not active yet")
		}
		return z, nil
	}
	return backoff.Retry(ctx, operation, policy(), backoff.WithMaxElapsedTime(time.Minute))
}

// ActiveInit makes the same test in the if that makes the call. Not
// reported.
func (c *Client) ActiveInit(ctx context.Context, name string) (string, error) {
	return backoff.Retry(ctx, func() (string, error) {
		var status string
		if z, err := c.find(ctx, name); err != nil {
			return "", backoff.Permanent(fmt.Errorf("find: %w", err))
		} else {
			status = z.Status
		}
		if status != "active" {
			return "", errors.New("zone not active yet")
		}
		return status, nil
	}, policy())
}

// Resend lets a failed query go round: a timed-out POST is sent again.
func (c *Client) Resend(ctx context.Context, name string) (*Zone, error) { // want Resend:"key place: \\(\\*Client\\)\\.find at polled\\.go:\\d+"
	return backoff.Retry(ctx, func() (*Zone, error) {
		z, err := c.find(ctx, name) // want `\(\*Client\)\.find sends POST \(http\.Client\.Do at polled\.go:\d+\) inside a retry without an Idempotency-Key header`
		if err != nil {
			return nil, fmt.Errorf("find: %w", err)
		}
		if z.Status != "active" {
			return nil, errors.New("zone not active yet")
		}
		return z, nil
	}, policy())
}

// LaterTest tests the error only after reading the answer: a failure
// may make the operation fail on the way there. Reported.
func (c *Client) LaterTest(ctx context.Context, name string) (*Zone, error) { // want LaterTest:"key place: \\(\\*Client\\)\\.find at polled\\.go:\\d+"
	return backoff.Retry(ctx, func() (*Zone, error) {
		z, err := c.find(ctx, name) // want `\(\*Client\)\.find sends POST`
		if z == nil {
			return nil, errors.New("no zone")
		}
		if err != nil {
			return nil, backoff.Permanent(err)
		}
		return z, nil
	}, policy())
}

// Status makes the send's errors permanent but goes round on the
// response's status, a failure of the send that may come after the
// server acted. Reported.
func (c *Client) Status(ctx context.Context, name string) (*http.Response, error) { // want Status:"key place: \\(\\*Client\\)\\.send at polled\\.go:\\d+"
	return backoff.Retry(ctx, func() (*http.Response, error) {
		resp, err := c.send(ctx, name) // want `\(\*Client\)\.send sends POST`
		if err != nil {
			return nil, backoff.Permanent(err)
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			return nil, fmt.Errorf("server: %s", resp.Status)
		}
		return resp, nil
	}, policy())
}
