package a

import (
	"context"

	retrygo "github.com/avast/retry-go/v4"
	backoffv4 "github.com/cenkalti/backoff/v4"
	backoffv5 "github.com/cenkalti/backoff/v5"
)

// An Attempts option already given is set to 1 by the fix.
func attemptsOption(ctx context.Context) error {
	return retrygo.Do(func() error { // want `nested retry: retry.Do makes 4 attempts, each reaching fetchPrice, which retries: retry loop \(3 attempts\) at a.go:\d+: up to 12 downstream calls per request`
		return fetchPrice(ctx)
	}, retrygo.Attempts(4), retrygo.Context(ctx))
}

// Options spread from a slice are not edited: no fix.
func spreadOptions(ctx context.Context, opts []retrygo.Option) error {
	return retrygo.Do(func() error { // want `nested retry: retry.Do makes`
		return fetchPrice(ctx)
	}, opts...)
}

// Options spread from a slice literal are read: 3 attempts.
func spreadLiteral(ctx context.Context) error {
	opts := []retrygo.Option{retrygo.Attempts(3), retrygo.Context(ctx)}
	return retrygo.Do(func() error { // want `nested retry: retry.Do makes 3 attempts, each reaching fetchPrice`
		return fetchPrice(ctx)
	}, opts...)
}

// A literal changed before it is spread is not read: unknown attempts.
func spreadChanged(ctx context.Context) error {
	opts := []retrygo.Option{retrygo.Attempts(1)}
	opts[0] = retrygo.Attempts(5)
	return retrygo.Do(func() error { // want `nested retry: retry.Do makes an unknown number of attempts, each reaching fetchPrice`
		return fetchPrice(ctx)
	}, opts...)
}

// cenkalti/backoff v4 without WithMaxRetries: the BackOff is wrapped in
// WithMaxRetries(b, 0), one attempt.
func cenkaltiWrap(ctx context.Context) error {
	return backoffv4.Retry(func() error { // want `nested retry: backoff.Retry makes .*, each reaching fetchPrice`
		return fetchPrice(ctx)
	}, backoffv4.NewExponentialBackOff())
}

// cenkalti/backoff v5: WithMaxTries(1) is added to the options.
func cenkaltiV5(ctx context.Context) error {
	_, err := backoffv5.Retry(ctx, func() (int, error) { // want `nested retry: backoff.Retry makes .*, each reaching fetchPrice`
		return 0, fetchPrice(ctx)
	})
	return err
}
