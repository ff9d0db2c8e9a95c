package breaker_test

import (
	"context"
	"errors"
	"testing"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/retry"
)

// TestRetryStopsOnRejection checks the contract with runtime/retry, which
// recognizes rejections through interface{ CircuitOpen() bool } without
// importing this package.
func TestRetryStopsOnRejection(t *testing.T) {
	assert.True(t, retry.IsCircuitOpen(breaker.ErrOpen))
	assert.True(t, retry.IsCircuitOpen(breaker.ErrTooManyTrials))

	b, err := breaker.New(breaker.Config{WindowSize: 1, MinimumCalls: 1})
	require.NoError(t, err)
	down := errors.New("down")
	require.ErrorIs(t, b.Do(context.Background(), func(context.Context) error { return down }), down)
	require.Equal(t, breaker.StateOpen, b.State())

	attempts := 0
	err = retry.Do(context.Background(), &retry.Policy{MaxAttempts: 5, Idempotent: true}, func(ctx context.Context) error {
		attempts++
		return b.Do(ctx, func(context.Context) error { return down })
	})
	assert.ErrorIs(t, err, breaker.ErrOpen)
	assert.Equal(t, 1, attempts, "no retry into an open circuit")
}
