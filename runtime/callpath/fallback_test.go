package callpath_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/callpath"
	"github.com/resilint/resilint/runtime/retry"
)

func TestFallbackGetsTheError(t *testing.T) {
	br := openBreaker(t, newClock(), breaker.Config{OpenWait: time.Minute})
	p := newPath(t, callpath.Config{Breaker: br, Retry: fast(3)})
	op, calls := script(nil)
	var got error
	v, err := callpath.ExecuteWithFallback(t.Context(), p, op, func(_ context.Context, err error) (int, error) {
		got = err
		return 42, nil
	})
	require.NoError(t, err)
	assert.Equal(t, 42, v)
	assert.ErrorIs(t, got, breaker.ErrOpen)
	assert.Zero(t, calls.Load())
}

func TestFallbackNotCalledOnSuccess(t *testing.T) {
	p := newPath(t, callpath.Config{Retry: fast(3)})
	op, _ := script(errDown, nil)
	v, err := callpath.ExecuteWithFallback(t.Context(), p, op, func(context.Context, error) (int, error) {
		t.Error("fallback called")
		return 0, nil
	})
	require.NoError(t, err)
	assert.Equal(t, 2, v)
}

// TestFallbackDeclines: what the fallback returns is the result, its error
// included; returning err passes the failure on.
func TestFallbackDeclines(t *testing.T) {
	p := newPath(t, callpath.Config{})
	op, _ := script(errInvalid)
	_, err := callpath.ExecuteWithFallback(t.Context(), p, op, func(_ context.Context, err error) (int, error) {
		return 0, err
	})
	assert.Equal(t, errInvalid, err)

	errCache := errors.New("cache miss")
	_, err = callpath.ExecuteWithFallback(t.Context(), p, op, func(context.Context, error) (int, error) {
		return 0, errCache
	})
	assert.Equal(t, errCache, err)
}

func TestNilFallback(t *testing.T) {
	p := newPath(t, callpath.Config{Timeout: time.Second, FallbackReserve: 100 * time.Millisecond})
	op, _ := script(errDown)
	_, err := callpath.ExecuteWithFallback(t.Context(), p, op, nil)
	assert.Equal(t, errDown, err)
	assert.Equal(t, errDown, p.DoWithFallback(t.Context(), func(context.Context) error { return errDown }, nil))
}

// TestFallbackNotCalledForGoneCaller: when the caller's context ends, nobody
// is left to use a fallback's answer.
func TestFallbackNotCalledForGoneCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPath(t, callpath.Config{Timeout: time.Minute, FallbackReserve: time.Second})
		fallback := func(context.Context, error) (int, error) {
			t.Error("fallback called")
			return 0, nil
		}
		ctx, cancel := context.WithCancel(t.Context())
		_, err := callpath.ExecuteWithFallback(ctx, p, func(ctx context.Context) (int, error) {
			cancel()
			return 0, ctx.Err()
		}, fallback)
		assert.Equal(t, context.Canceled, err)

		ctx, cancel = context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		start := time.Now()
		_, err = callpath.ExecuteWithFallback(ctx, p, func(ctx context.Context) (int, error) {
			<-ctx.Done()
			return 0, ctx.Err()
		}, func(ctx context.Context, err error) (int, error) {
			// The reserve is taken off the caller's deadline: the fallback is
			// called with a second left, not after the caller has gone.
			assert.Equal(t, 9*time.Second, time.Since(start))
			assert.NoError(t, ctx.Err())
			return 1, nil
		})
		assert.NoError(t, err)
	})
}

// TestFallbackReserve: with a reserve, a fallback called because the total
// deadline came gets a context with the reserve left; the deadline still
// bounds the fallback.
func TestFallbackReserve(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPath(t, callpath.Config{Timeout: time.Second, FallbackReserve: 100 * time.Millisecond, Retry: fast(3)})
		start := time.Now()
		v, err := callpath.ExecuteWithFallback(t.Context(), p, func(ctx context.Context) (string, error) {
			d, _ := ctx.Deadline()
			assert.Equal(t, start.Add(900*time.Millisecond), d, "the path runs short of the total deadline by the reserve")
			<-ctx.Done()
			return "", ctx.Err()
		}, func(ctx context.Context, err error) (string, error) {
			assert.Equal(t, 900*time.Millisecond, time.Since(start))
			require.NoError(t, ctx.Err(), "the fallback's context has the reserve left")
			d, _ := ctx.Deadline()
			assert.Equal(t, start.Add(time.Second), d, "the total deadline bounds the fallback")
			assert.ErrorIs(t, err, callpath.ErrTimeout)
			var te *callpath.TimeoutError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, 900*time.Millisecond, te.After)
			<-ctx.Done()
			assert.Equal(t, callpath.ErrTimeout, context.Cause(ctx))
			return "stale", nil
		})
		require.NoError(t, err)
		assert.Equal(t, "stale", v)
		assert.Equal(t, time.Second, time.Since(start))
	})
}

// TestFallbackWithoutReserve: without a reserve, a fallback called because
// the total deadline passed gets a context that is already done.
func TestFallbackWithoutReserve(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPath(t, callpath.Config{Timeout: time.Second})
		_, err := callpath.ExecuteWithFallback(t.Context(), p, func(ctx context.Context) (int, error) {
			<-ctx.Done()
			return 0, ctx.Err()
		}, func(ctx context.Context, err error) (int, error) {
			assert.ErrorIs(t, err, callpath.ErrTimeout)
			assert.Equal(t, context.DeadlineExceeded, ctx.Err())
			return 0, err
		})
		assert.ErrorIs(t, err, callpath.ErrTimeout)
	})
}

// TestReserveOnlyWithFallback: a call without a fallback has the whole time.
func TestReserveOnlyWithFallback(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPath(t, callpath.Config{Timeout: time.Second, FallbackReserve: 100 * time.Millisecond})
		start := time.Now()
		_, err := callpath.Execute(t.Context(), p, func(ctx context.Context) (int, error) {
			d, _ := ctx.Deadline()
			assert.Equal(t, start.Add(time.Second), d)
			return 0, nil
		})
		require.NoError(t, err)
	})
}

func TestDoWithFallback(t *testing.T) {
	p := newPath(t, callpath.Config{Retry: fast(2)})
	var got error
	err := p.DoWithFallback(t.Context(), func(context.Context) error { return errDown }, func(_ context.Context, err error) error {
		got = err
		return nil // queued for later, say
	})
	require.NoError(t, err)
	assert.ErrorIs(t, got, retry.ErrAttemptsExhausted)
	assert.ErrorIs(t, got, errDown)
}
