package a

import (
	"context"

	retrygo "github.com/avast/retry-go/v4"
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
