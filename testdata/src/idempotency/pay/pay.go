// Package pay builds and sends payment requests for other packages.
package pay

import (
	"bytes"
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// NewChargeRequest builds a POST without a key.
func NewChargeRequest(ctx context.Context, body []byte) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
}

// Charge sends a POST without a key.
func Charge(ctx context.Context, c *http.Client, body []byte) error {
	req, err := NewChargeRequest(ctx, body)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ChargeWithKey sends a POST with the key it is given.
func ChargeWithKey(ctx context.Context, c *http.Client, body []byte, key string) error {
	req, err := NewChargeRequest(ctx, body)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// RetriedCharge sends a POST without a key through a client that retries
// it: the key belongs here, and it is reported here.
func RetriedCharge(c *retryablehttp.Client, body []byte) error { // want RetriedCharge:"key place: retryablehttp.Client.Post at pay.go:\\d+"
	resp, err := c.Post("https://pay.example/charges", "application/json", body) // want `retryablehttp.Client.Post sends POST inside a retry without an Idempotency-Key header`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ChargeVia calls RetriedCharge: its callers' retries are retries of that
// retry.
func ChargeVia(c *retryablehttp.Client, body []byte) error { // want ChargeVia:"key place: retryablehttp.Client.Post at pay.go:\\d+"
	return RetriedCharge(c, body)
}

// A retry in this package around ChargeVia: no finding of its own, a
// related location of RetriedCharge's.
func RetryInPackage(c *retryablehttp.Client, body []byte) error { // want RetryInPackage:"key place: retryablehttp.Client.Post at pay.go:\\d+"
	var err error
	for i := 0; i < 2; i++ {
		if err = ChargeVia(c, body); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
