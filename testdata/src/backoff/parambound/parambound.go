// Package parambound retries up to a number of attempts its caller gives,
// testing both the error and the status: the attempt counter is compared
// only with a parameter, so its concrete values decide nothing.
package parambound

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

// RoundTrip sends in the timer's select case and resets the timer to a
// growing delay with no random part.
func RoundTrip(ctx context.Context, c *http.Client, req *http.Request, maxAttempts int) (*http.Response, error) {
	delay := 100 * time.Millisecond
	timer := time.NewTimer(0)
	defer timer.Stop()
	for attempt := 1; ; attempt++ {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
			resp, err := c.Do(req)
			if err == nil && resp.StatusCode != http.StatusBadGateway {
				return resp, nil
			}
			if err == nil {
				resp.Body.Close()
			}
			if attempt >= maxAttempts {
				return nil, errors.New("giving up")
			}
			timer.Reset(delay) // want `retry delay grows exponentially with no cap and no jitter`
			delay *= 2
		}
	}
}

// RoundTripJittered draws each delay at random below a capped bound.
func RoundTripJittered(ctx context.Context, c *http.Client, req *http.Request, maxAttempts int) (*http.Response, error) {
	ceiling := 100 * time.Millisecond
	timer := time.NewTimer(0)
	defer timer.Stop()
	for attempt := 1; ; attempt++ {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
			resp, err := c.Do(req)
			if err == nil && resp.StatusCode != http.StatusBadGateway {
				return resp, nil
			}
			if err == nil {
				resp.Body.Close()
			}
			if attempt >= maxAttempts {
				return nil, errors.New("giving up")
			}
			timer.Reset(time.Duration(rand.Int64N(int64(ceiling))))
			ceiling = min(2*ceiling, 10*time.Second)
		}
	}
}
