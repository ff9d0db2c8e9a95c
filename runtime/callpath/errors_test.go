package callpath_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/bulkhead"
	"github.com/resilint/resilint/runtime/callpath"
	"github.com/resilint/resilint/runtime/deadline"
	"github.com/resilint/resilint/runtime/retry"
)

// TestErrorsNameTheLayer: whichever layer gives up, errors.Is finds its
// sentinel, and the operation's last error too.
func TestErrorsNameTheLayer(t *testing.T) {
	layers := []error{breaker.ErrOpen, retry.ErrAttemptsExhausted, retry.ErrDeadline, retry.ErrBudgetExhausted,
		bulkhead.ErrFull, callpath.ErrTimeout, callpath.ErrAttemptTimeout}
	block := func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	}
	fail := func(context.Context) (int, error) { return 0, errDown }
	tests := []struct {
		name string
		cfg  func(t *testing.T) callpath.Config
		op   func(context.Context) (int, error)
		want []error // the layers that gave up, and the operation's error
	}{{
		name: "breaker open",
		cfg: func(t *testing.T) callpath.Config {
			return callpath.Config{Breaker: openBreaker(t, newClock(), breaker.Config{}), Retry: fast(3)}
		},
		op:   fail,
		want: []error{breaker.ErrOpen},
	}, {
		name: "attempts exhausted",
		cfg: func(t *testing.T) callpath.Config {
			return callpath.Config{Breaker: newBreaker(t, breaker.Config{}), Retry: fast(3)}
		},
		op:   fail,
		want: []error{retry.ErrAttemptsExhausted, errDown},
	}, {
		name: "no time for another attempt",
		cfg: func(t *testing.T) callpath.Config {
			return callpath.Config{Timeout: time.Second, Retry: &retry.Policy{BaseDelay: 2 * time.Second, Jitter: retry.JitterNone}}
		},
		op:   fail,
		want: []error{retry.ErrDeadline, errDown},
	}, {
		name: "retry budget spent",
		cfg: func(t *testing.T) callpath.Config {
			b, err := retry.NewBudget(retry.BudgetConfig{NoFloor: true})
			require.NoError(t, err)
			pol := fast(3)
			pol.Budget = b
			return callpath.Config{Retry: pol}
		},
		op:   fail,
		want: []error{retry.ErrBudgetExhausted, errDown},
	}, {
		name: "bulkhead full",
		cfg: func(t *testing.T) callpath.Config {
			bh := newBulkhead(t, bulkhead.Config{MaxConcurrent: 1})
			require.True(t, bh.TryAcquire())
			return callpath.Config{Bulkhead: bh}
		},
		op:   fail,
		want: []error{bulkhead.ErrFull},
	}, {
		name: "bulkhead full on every attempt",
		cfg: func(t *testing.T) callpath.Config {
			bh := newBulkhead(t, bulkhead.Config{MaxConcurrent: 1})
			require.True(t, bh.TryAcquire())
			return callpath.Config{Retry: fast(3), Bulkhead: bh}
		},
		op:   fail,
		want: []error{retry.ErrAttemptsExhausted, bulkhead.ErrFull},
	}, {
		name: "attempt timeout",
		cfg: func(t *testing.T) callpath.Config {
			return callpath.Config{AttemptTimeout: time.Second}
		},
		op:   block,
		want: []error{callpath.ErrAttemptTimeout, context.DeadlineExceeded},
	}, {
		name: "attempt timeouts, retried",
		cfg: func(t *testing.T) callpath.Config {
			return callpath.Config{Retry: fast(2), AttemptTimeout: time.Second}
		},
		op:   block,
		want: []error{retry.ErrAttemptsExhausted, callpath.ErrAttemptTimeout, context.DeadlineExceeded},
	}, {
		name: "attempt timeouts after a failure",
		cfg: func(t *testing.T) callpath.Config {
			return callpath.Config{Timeout: time.Second, Retry: fast(3), AttemptTimeout: 200 * time.Millisecond}
		},
		op: func(ctx context.Context) (int, error) {
			if a, _ := retry.AttemptFromContext(ctx); a.Number == 1 {
				return 0, errDown
			}
			<-ctx.Done()
			return 0, ctx.Err()
		},
		want: []error{retry.ErrAttemptsExhausted, callpath.ErrAttemptTimeout, context.DeadlineExceeded},
	}, {
		name: "total timeout while attempting",
		cfg: func(t *testing.T) callpath.Config {
			return callpath.Config{Timeout: time.Second, Breaker: newBreaker(t, breaker.Config{}), Retry: fast(3)}
		},
		op:   block,
		want: []error{callpath.ErrTimeout, context.DeadlineExceeded},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := newPath(t, tt.cfg(t))
				_, err := callpath.Execute(t.Context(), p, tt.op)
				require.Error(t, err)
				for _, want := range tt.want {
					assert.ErrorIs(t, err, want)
				}
				for _, layer := range layers {
					if !errors.Is(err, layer) {
						continue
					}
					found := false
					for _, want := range tt.want {
						found = found || layer == want
					}
					assert.True(t, found, "%v: unexpected %v in the chain", err, layer)
				}
			})
		})
	}
}

// TestNotEnoughTimeNotRetried: a request a deadline.Transport refused for
// lack of time is not retried (the time left only shrinks), and the
// breaker, with BreakerClassify, does not count it.
func TestNotEnoughTimeNotRetried(t *testing.T) {
	tr, err := deadline.NewTransport(deadline.TransportConfig{})
	require.NoError(t, err)
	client := &http.Client{Transport: tr}
	br := newBreaker(t, breaker.Config{WindowSize: 1, MinimumCalls: 1, Classify: callpath.BreakerClassify})
	p := newPath(t, callpath.Config{Breaker: br, Retry: fast(5)})

	ctx, cancel := context.WithTimeout(t.Context(), 250*time.Millisecond) // under the default 100ms margin + 200ms minimum
	defer cancel()
	var calls int
	err = p.Do(ctx, func(ctx context.Context) error {
		calls++
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://dependency.invalid/", nil)
		if err != nil {
			return retry.Permanent(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
	require.ErrorIs(t, err, deadline.ErrNotEnoughTime)
	assert.False(t, retry.IsPermanent(err), "the mark that stopped the retry is gone")
	assert.Equal(t, 1, calls)
	assert.Equal(t, breaker.StateClosed, br.State())
	assert.Zero(t, br.Metrics().Calls, "ignored by the breaker")
}

func TestBreakerClassify(t *testing.T) {
	notEnough := fmt.Errorf("get: %w", deadline.ErrNotEnoughTime)
	tests := []struct {
		err  error
		want breaker.Outcome
	}{
		{nil, breaker.OutcomeSuccess},
		{bulkhead.ErrFull, breaker.OutcomeIgnored},
		{&retry.Error{Attempts: 3, Reason: retry.ErrAttemptsExhausted, Err: bulkhead.ErrFull}, breaker.OutcomeIgnored},
		{notEnough, breaker.OutcomeIgnored},
		{&callpath.TimeoutError{Err: &retry.Error{Reason: context.DeadlineExceeded, Err: bulkhead.ErrFull}}, breaker.OutcomeIgnored},
		{errDown, breaker.OutcomeFailure},
		{&retry.Error{Attempts: 3, Reason: retry.ErrAttemptsExhausted, Err: errDown}, breaker.OutcomeFailure},
		{errInvalid, breaker.OutcomeSuccess},
		{context.Canceled, breaker.OutcomeIgnored},
		{&callpath.TimeoutError{Attempt: true, Err: context.DeadlineExceeded}, breaker.OutcomeFailure},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, callpath.BreakerClassify(tt.err), "%v", tt.err)
	}
}

// TestFullBulkheadDoesNotOpenBreaker: with BreakerClassify, local load that
// fills the bulkhead does not open the circuit on a healthy dependency; with
// the default classifier it does.
func TestFullBulkheadDoesNotOpenBreaker(t *testing.T) {
	for _, c := range []struct {
		classify func(error) breaker.Outcome
		want     breaker.State
	}{{callpath.BreakerClassify, breaker.StateClosed}, {nil, breaker.StateOpen}} {
		br := newBreaker(t, breaker.Config{WindowSize: 5, MinimumCalls: 5, Classify: c.classify})
		bh := newBulkhead(t, bulkhead.Config{MaxConcurrent: 1})
		require.True(t, bh.TryAcquire())
		p := newPath(t, callpath.Config{Breaker: br, Bulkhead: bh})
		for range 5 {
			err := p.Do(t.Context(), func(context.Context) error { return nil })
			require.ErrorIs(t, err, bulkhead.ErrFull)
		}
		assert.Equal(t, c.want, br.State())
		bh.Release()
	}
}

func TestTimeoutErrorText(t *testing.T) {
	assert.Equal(t, "callpath: timeout", (&callpath.TimeoutError{}).Error())
	assert.Equal(t, "callpath: attempt timeout after 1.5ms: x",
		(&callpath.TimeoutError{Attempt: true, After: 1500 * time.Microsecond, Err: errors.New("x")}).Error())
	assert.Equal(t, "callpath: timeout after 300µs: x",
		(&callpath.TimeoutError{After: 300 * time.Microsecond, Err: errors.New("x")}).Error())
}

// TestDeadlineTransportPerAttempt: through a deadline.Transport, each attempt
// tells the next hop its own time (the attempt timeout, less the margin), not
// the request's.
func TestDeadlineTransportPerAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var budgets []int
		// The next hop, without a network: it records the time it was told
		// and answers 503.
		next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			ms, err := strconv.Atoi(r.Header.Get(deadline.DefaultTimeoutHeader))
			assert.NoError(t, err)
			budgets = append(budgets, ms)
			return &http.Response{StatusCode: http.StatusServiceUnavailable, Body: http.NoBody, Request: r}, nil
		})
		tr, err := deadline.NewTransport(deadline.TransportConfig{Base: next})
		require.NoError(t, err)
		client := &http.Client{Transport: tr}
		p := newPath(t, callpath.Config{Timeout: 10 * time.Second, Retry: fast(2), AttemptTimeout: time.Second})

		err = p.Do(t.Context(), func(ctx context.Context) error {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://next.example/", nil)
			if err != nil {
				return retry.Permanent(err)
			}
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			return retry.HTTPError(resp)
		})
		require.ErrorIs(t, err, retry.ErrAttemptsExhausted)
		assert.Equal(t, []int{900, 900}, budgets, "each attempt's second less the 100ms margin")
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
