// Package a retries requests to hosts the service mesh retries too (the
// mesh's routes are set by the test, as resilint -mesh sets them).
package a

import (
	"context"
	"errors"
	"net/http"
	"time"

	rt "github.com/resilint/resilint/runtime/retry"
)

const shippingBase = "http://shipping.shop.svc.cluster.local:8080/"

// A retry loop around a GET to a host whose route is Istio's default.
func quote(ctx context.Context, c *http.Client) error {
	for i := 0; i < 3; i++ { // want `nested retry across layers: retry loop makes 3 attempts, each sent to shipping.shop.svc.cluster.local, which the service mesh retries \(2 retries on .*, mesh/shipping.yaml:1\): 3 attempts in code × 3 by the mesh \(Istio default\) = up to 9 calls per request`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, shippingBase+"quote", nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("no quote")
}

// A library retry around http.Get to a host with a configured route; the
// short name resolves, as it does in the cluster.
func track(ctx context.Context) error {
	return rt.Do(ctx, &rt.Policy{MaxAttempts: 2}, func(ctx context.Context) error { // want `retry.Do makes 2 attempts, each sent to tracking.shop.svc.cluster.local, .*: 2 attempts in code × 4 by the mesh = up to 8 calls per request`
		resp, err := http.Get("http://tracking.shop/v1/status")
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// Near misses: a host the mesh does not know; a host the model cannot
// read; a route that does not retry; an unbounded loop.
func elsewhere(ctx context.Context, base string) error {
	for i := 0; i < 3; i++ {
		if resp, err := http.Get("https://api.example.com/rates"); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	for i := 0; i < 3; i++ {
		if resp, err := http.Get(base + "/rates"); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	for i := 0; i < 3; i++ {
		if resp, err := http.Get("http://ledger.shop.svc.cluster.local/balance"); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	// The host ends in the next operand: not known.
	for i := 0; i < 3; i++ {
		if resp, err := http.Get("http://shipping" + base); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return nil
}

// A base URL kept in a struct field, set from a constant in a composite
// literal of this package: the model reads it.
type client struct{ base string }

var shipping = client{base: "http://shipping.shop.svc.cluster.local/"}

func (c client) label(ctx context.Context) error {
	for i := 0; i < 4; i++ { // want `retry loop makes 4 attempts, each sent to shipping.shop.svc.cluster.local, .*: 4 attempts in code × 3 by the mesh \(Istio default\) = up to 12 calls per request`
		if resp, err := http.Get(c.base + "labels"); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return nil
}
