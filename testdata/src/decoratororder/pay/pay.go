// Package pay calls the payment provider through a circuit breaker.
package pay

import (
	"context"

	"github.com/sony/gobreaker/v2"
)

type Client struct {
	cb *gobreaker.CircuitBreaker[string]
}

func send(ctx context.Context) (string, error) { return "", nil }

// Charge goes through the breaker.
func (c *Client) Charge(ctx context.Context) (string, error) {
	return c.cb.Execute(func() (string, error) { return send(ctx) })
}
