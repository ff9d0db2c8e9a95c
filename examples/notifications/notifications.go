// Package notifications sends order e-mails. It retries at one layer only,
// with resilint's runtime/retry, and is not reported.
package notifications

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/resilint/resilint/runtime/retry"
)

// Client posts messages to the mail relay.
type Client struct {
	Relay  string
	HTTP   *http.Client
	Policy retry.Policy
}

// OrderConfirmed e-mails the customer.
func (c *Client) OrderConfirmed(ctx context.Context, to, orderID string) error {
	return retry.Do(ctx, &c.Policy, func(ctx context.Context) error {
		body := strings.NewReader(fmt.Sprintf(`{"to":%q,"template":"order-confirmed","order":%q}`, to, orderID))
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.Relay+"/messages/"+orderID, body)
		if err != nil {
			return retry.Permanent(err)
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return retry.HTTPError(resp)
	})
}
