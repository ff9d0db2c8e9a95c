// Package inventory is a client for the stock service.
package inventory

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Client reserves stock.
type Client struct {
	Base string
	HTTP *http.Client
}

// reserveTimeout is the stock service's own timeout for a reservation.
const reserveTimeout = 5 * time.Second

// Reserve holds qty units of sku, retrying with exponential backoff up to
// 5 attempts, within its own timeout.
func (c *Client) Reserve(ctx context.Context, sku string, qty int) error {
	ctx, cancel := context.WithTimeout(ctx, reserveTimeout)
	defer cancel()
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
