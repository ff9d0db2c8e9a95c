// Package inventory is a client for the stock service.
package inventory

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/cenkalti/backoff/v4"
)

// Client reserves stock.
type Client struct {
	Base string
	HTTP *http.Client
}

// Reserve holds qty units of sku, retrying with exponential backoff up to
// 5 attempts.
func (c *Client) Reserve(ctx context.Context, sku string, qty int) error {
	op := func() error {
		u := fmt.Sprintf("%s/reserve?sku=%s&qty=%d", c.Base, url.QueryEscape(sku), qty)
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, u, nil)
		if err != nil {
			return backoff.Permanent(err)
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("inventory: %s", resp.Status)
		}
		return nil
	}
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 4), ctx)
	return backoff.Retry(op, b)
}
