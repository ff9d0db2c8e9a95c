// Package shipping asks the shipping service for quotes. On its own it is
// a well-behaved client — one retry layer, resilint's runtime/retry,
// jittered and bounded — and nothing is reported. Through the service
// mesh it is not alone: the shipping service has no VirtualService
// (examples/mesh/shipping.yaml), so Istio's default policy retries every
// attempt twice more in the sidecar, and `resilint -mesh examples/mesh`
// reports 3 attempts in code × 3 by the mesh = up to 9 calls per quote.
package shipping

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/resilint/resilint/runtime/retry"
)

// base is the shipping service, by its name in the cluster.
const base = "http://shipping.shop.svc.cluster.local:8080/"

// Quote is a shipping price.
type Quote struct {
	Cents   int64  `json:"cents"`
	Carrier string `json:"carrier"`
}

// Client gets quotes from the shipping service.
type Client struct {
	HTTP *http.Client
}

// Quote returns the cheapest shipping for an order.
func (c *Client) Quote(ctx context.Context, orderID string) (Quote, error) {
	var q Quote
	err := retry.Do(ctx, &retry.Policy{MaxAttempts: 3}, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"quotes/"+url.PathEscape(orderID), nil)
		if err != nil {
			return retry.Permanent(err)
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if err := retry.HTTPError(resp); err != nil {
			return err
		}
		return json.NewDecoder(resp.Body).Decode(&q)
	})
	return q, err
}
