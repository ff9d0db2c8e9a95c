// Package pricing is a client for the pricing service, behind a circuit
// breaker (resilint's runtime/breaker).
package pricing

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/resilint/resilint/runtime/breaker"
)

// Client quotes prices.
type Client struct {
	Base    string
	HTTP    *http.Client
	Breaker *breaker.Breaker
}

// New returns a client whose calls go through a breaker.
func New(base string, hc *http.Client) (*Client, error) {
	b, err := breaker.New(breaker.Config{Name: "pricing"})
	if err != nil {
		return nil, err
	}
	return &Client{Base: base, HTTP: hc, Breaker: b}, nil
}

// Quote returns the price of sku in cents.
func (c *Client) Quote(ctx context.Context, sku string) (int64, error) {
	var cents int64
	err := c.Breaker.Do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Base+"/quote/"+sku, nil)
		if err != nil {
			return err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("pricing: %s", resp.Status)
		}
		return json.NewDecoder(resp.Body).Decode(&cents)
	})
	return cents, err
}
