// Package a configures library retries in the ways the libconfig layer
// states, and in ways it states as fine.
package a

import (
	"context"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff "github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	goretry "github.com/sethvargo/go-retry"
)

func op() error { return nil }

func constantUnbounded() error {
	return backoff.Retry(op, backoff.NewConstantBackOff(time.Second))
}

func constantBounded() error {
	return backoff.Retry(op, backoff.WithMaxRetries(backoff.NewConstantBackOff(time.Second), 3))
}

func exponentialWritten() error {
	b := backoff.NewExponentialBackOff()
	b.RandomizationFactor = 0
	return backoff.Retry(op, b)
}

func literal() error {
	return backoff.Retry(op, backoff.WithMaxRetries(&backoff.ExponentialBackOff{RandomizationFactor: 0.5}, 2))
}

func delayType() error {
	return retrygo.Do(op, retrygo.DelayType(retrygo.FixedDelay), retrygo.Attempts(0))
}

func jitteredSeth(ctx context.Context) error {
	return goretry.Do(ctx, goretry.WithFullJitter(goretry.NewExponential(time.Second)), func(context.Context) error { return op() })
}

func client() {
	c := retryablehttp.NewClient()
	_, _ = c.Get("https://example.com")
}
