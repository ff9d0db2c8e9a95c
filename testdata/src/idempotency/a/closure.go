package a

import (
	"bytes"
	"context"
	"net/http"
	"time"

	backoff "github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/resilint/resilint/runtime/idempotency"

	"idempotency/pay"
)

// The operation is a closure kept in a variable, then given to the retry
// (cenkalti/backoff's usual shape): the key is made before the closure.
func chargeOp(ctx context.Context, c *http.Client, body []byte) error { // want chargeOp:"key place: http\\.Client\\.Do at closure\\.go:\\d+"
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
func keyCallInOp(ctx context.Context, c *http.Client, body []byte) error { // want keyCallInOp:"key place: http\\.Client\\.Do at closure\\.go:\\d+"
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
func keyVarInOp(ctx context.Context, c *http.Client, body []byte) error { // want keyVarInOp:"key place: http\\.Client\\.Do at closure\\.go:\\d+"
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

// ---- near misses ---------------------------------------------------------

// A retry around a function that retries its POST itself: the POST is
// reported once, in pay, where its key belongs; this retry of a retry is
// retrynesting's finding.
func retryRetried(c *retryablehttp.Client, body []byte) error { // want retryRetried:"key place: retryablehttp\\.Client\\.Post at pay\\.go:\\d+"
	var err error
	for i := 0; i < 3; i++ {
		if err = pay.RetriedCharge(c, body); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// The same through a function that calls it.
func retryVia(c *retryablehttp.Client, body []byte) error { // want retryVia:"key place: retryablehttp\\.Client\\.Post at pay\\.go:\\d+"
	return backoff.Retry(func() error {
		return pay.ChargeVia(c, body)
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2))
}
