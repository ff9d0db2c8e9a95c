// Package payments is a client for the payment provider.
package payments

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Client charges cards through the provider's HTTP API.
type Client struct {
	base string
	http *retryablehttp.Client
}

// New returns a client whose HTTP client retries failed requests itself:
// up to RetryMax+1 = 4 attempts per call.
func New(base string) *Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 3
	rc.RetryWaitMin = 100 * time.Millisecond
	rc.RetryWaitMax = 2 * time.Second
	rc.Logger = nil
	return &Client{base: base, http: rc}
}

// Charge asks the provider to charge amount cents to the order's card.
func (c *Client) Charge(ctx context.Context, orderID string, amount int64) error {
	body, err := json.Marshal(map[string]any{"order": orderID, "amount": amount})
	if err != nil {
		return err
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, c.base+"/charges", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("payments: charge %s: %s", orderID, resp.Status)
	}
	return nil
}
