// Package statefulpred: loops that go round on a test a constructor
// made.
package statefulpred

import (
	"context"

	"backoff/statefulpred/checkers"
)

type store interface {
	Get(ctx context.Context, key string) ([]byte, error)
}

// The test counts its calls and waits by itself: the loop follows the
// code's own policy, whose bound and pauses the model does not read. Not
// reported.
func get(ctx context.Context, s store, key string) ([]byte, error) {
	for shouldRetry := checkers.Default(); ; {
		b, err := s.Get(ctx, key)
		if !shouldRetry(err) {
			return b, err
		}
	}
}

// The near miss: a test that keeps no state says the same thing on every
// failure; the loop goes round at once and for ever.
func getTransient(ctx context.Context, s store, key string) ([]byte, error) {
	for retryable := checkers.Transient(); ; { // want `retry loop tries again at once` `retry loop has no bound`
		b, err := s.Get(ctx, key)
		if !retryable(err) {
			return b, err
		}
	}
}
