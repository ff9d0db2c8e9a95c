// Package clients holds retrying clients used by other fixture packages:
// their retries are known to callers through facts.
package clients

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

func send(ctx context.Context) error { return nil }

// Charge retries three times by hand.
func Charge(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Refund does not retry.
func Refund(ctx context.Context) error { return send(ctx) }

// Inventory wraps a retryablehttp client.
type Inventory struct {
	http *retryablehttp.Client
}

func NewInventory() *Inventory {
	c := retryablehttp.NewClient()
	c.RetryMax = 2
	return &Inventory{http: c}
}

// Reserve sends through the retrying client: 3 attempts.
func (i *Inventory) Reserve(url string) (*http.Response, error) {
	return i.http.Post(url, "application/json", nil)
}

// ChargeTwice calls Charge inside its own retry: 3 × 3.
func ChargeTwice(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching Charge, which retries: retry loop \(3 attempts\) at clients.go:\d+: up to 9 downstream calls per request`
		if err := Charge(ctx); err == nil {
			return nil
		}
	}
	return errors.New("charge failed")
}

// Do is the package's own retry helper: it retries op up to attempts times.
func Do(attempts int, op func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
