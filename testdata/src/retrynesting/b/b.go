// Package b nests retries around clients from another package.
package b

import (
	"context"
	"errors"

	backoff "github.com/cenkalti/backoff/v4"

	"retrynesting/clients"
)

func checkout(ctx context.Context) error {
	return backoff.Retry(func() error { // want `nested retry: backoff.Retry makes 4 attempts, each reaching clients.Charge, which retries: retry loop \(3 attempts\) at clients.go:\d+: up to 12 downstream calls per request`
		return clients.Charge(ctx)
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

// Three layers: 3 × (3 × 3).
func checkoutDeep(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching clients.ChargeTwice, which retries: retry loop \(3 attempts\) at clients.go:\d+, up to 9 calls: up to 27 downstream calls per request`
		if err = clients.ChargeTwice(ctx); err == nil {
			return nil
		}
	}
	return err
}

func reserve(inv *clients.Inventory) error {
	for i := 0; i < 2; i++ { // want `nested retry: retry loop makes 2 attempts, each reaching \(\*clients.Inventory\).Reserve, which retries: retryablehttp.Client.Post \(3 attempts\) at clients.go:\d+: up to 6 downstream calls per request; retry at one layer only \(set RetryMax to 0 on the retryablehttp.Client\)`
		resp, err := inv.Reserve("http://inventory/reserve")
		if err == nil && resp.StatusCode < 500 {
			return nil
		}
	}
	return errors.New("reserve failed")
}

// Near miss: the retried operation does not retry.
func refund(ctx context.Context) error {
	return backoff.Retry(func() error { return clients.Refund(ctx) }, backoff.NewExponentialBackOff())
}

// Near miss: ranging over items, each of which retries, is not a retry.
func chargeAll(ctx context.Context, n int) error {
	for i := 0; i < n; i++ {
		if err := clients.Charge(ctx); err != nil {
			return err
		}
	}
	return nil
}

// A retry helper of another package around a retrying call: 4 × 3.
func viaHelper(ctx context.Context) error {
	return clients.Do(4, func() error { // want `nested retry: clients.Do makes 4 attempts, each reaching clients.Charge, which retries: retry loop \(3 attempts\) at clients.go:\d+: up to 12 downstream calls per request`
		return clients.Charge(ctx)
	})
}

// The helper around a call that does not retry.
func helperOnce(ctx context.Context) error {
	return clients.Do(3, func() error { return clients.Refund(ctx) })
}
