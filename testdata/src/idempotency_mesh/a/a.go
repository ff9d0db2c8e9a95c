// Package a retries POSTs to hosts the service mesh resends them to.
package a

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"
)

// A retried POST without a key, to a host whose route resends it.
func charge(ctx context.Context, c *http.Client, body []byte) error { // want charge:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://payments.shop/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.Do(req) // want `http.Client.Do sends POST inside a retry without an Idempotency-Key header: .* \(a double charge\); the service mesh resends it too: payments.shop.svc.cluster.local retries POST on 5xx \(3 retries on 5xx,connect-failure, mesh/payments.yaml:9\), whatever the code decides`
		if err == nil && resp.StatusCode < 500 {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("charge failed")
}

// Near miss: the mesh's route for this host does not resend (the finding
// is the plain one).
func refund(ctx context.Context, c *http.Client, body []byte) error { // want refund:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://refunds.shop.svc.cluster.local/refunds", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.Do(req) // want `http.Client.Do sends POST inside a retry without an Idempotency-Key header: .* \(a double charge\)$`
		if err == nil && resp.StatusCode < 500 {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("refund failed")
}
