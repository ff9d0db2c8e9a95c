package a

import (
	"bytes"
	"context"
	"net/http"

	backoff "github.com/cenkalti/backoff/v4"
	"github.com/resilint/resilint/runtime/idempotency"
)

// The operation is a closure kept in a variable, then given to the retry
// (cenkalti/backoff's usual shape): the key is made before the closure.
func chargeOp(ctx context.Context, c *http.Client, body []byte) error {
	op := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(err)
		}
		resp, err := c.Do(req) // want `http.Client.Do sends POST inside a retry without an Idempotency-Key header`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	b := backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3)
	return backoff.Retry(op, b)
}

// A key made in the closure, by a call: made once, before the closure.
func keyCallInOp(ctx context.Context, c *http.Client, body []byte) error {
	op := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(err)
		}
		req.Header.Set("Idempotency-Key", idempotency.NewKey()) // want `the Idempotency-Key is made anew in every attempt of the backoff.Retry`
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	return backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

// A key made in the closure into a variable: the statement moves.
func keyVarInOp(ctx context.Context, c *http.Client, body []byte) error {
	op := func() error {
		key := newUUID()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(err)
		}
		req.Header.Set("Idempotency-Key", key) // want `the Idempotency-Key is made anew in every attempt of the backoff.Retry`
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	return backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}
