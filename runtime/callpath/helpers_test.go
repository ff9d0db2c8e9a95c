package callpath_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/bulkhead"
	"github.com/resilint/resilint/runtime/callpath"
	"github.com/resilint/resilint/runtime/retry"
)

// errDown is a failure of the dependency: retryable, and a failure for the
// breaker.
var errDown = &retry.StatusError{StatusCode: 503, Status: "503 Service Unavailable"}

// errInvalid is the dependency rejecting the request: not retried, and a
// success for the breaker (the dependency answered).
var errInvalid = &retry.StatusError{StatusCode: 400, Status: "400 Bad Request"}

// fakeClock is a breaker.Clock moved by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// counted is a breaker classifier that counts how often the breaker asks it
// (once for every call that returned an error).
type counted struct{ n atomic.Int64 }

func (c *counted) classify(err error) breaker.Outcome {
	c.n.Add(1)
	return callpath.BreakerClassify(err)
}

func newBreaker(t testing.TB, c breaker.Config) *breaker.Breaker {
	t.Helper()
	b, err := breaker.New(c)
	require.NoError(t, err)
	return b
}

// openBreaker returns a breaker that is open, with its open wait ahead on
// clock.
func openBreaker(t testing.TB, clock *fakeClock, c breaker.Config) *breaker.Breaker {
	t.Helper()
	c.WindowSize, c.MinimumCalls, c.Clock = 1, 1, clock
	b := newBreaker(t, c)
	_ = b.Do(context.Background(), func(context.Context) error { return errDown })
	require.Equal(t, breaker.StateOpen, b.State())
	return b
}

func newBulkhead(t testing.TB, c bulkhead.Config) *bulkhead.Bulkhead {
	t.Helper()
	b, err := bulkhead.New(c)
	require.NoError(t, err)
	return b
}

func newPath(t testing.TB, c callpath.Config) *callpath.Path {
	t.Helper()
	p, err := callpath.New(c)
	require.NoError(t, err)
	return p
}

// fast is a retry policy with fixed, short delays.
func fast(attempts int) *retry.Policy {
	//resilint:ignore backoff the test needs exact, deterministic delays
	return &retry.Policy{MaxAttempts: attempts, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, Jitter: retry.JitterNone, Idempotent: true}
}

// script returns an operation that returns the errors of outcomes in turn
// (nil for success; the last one again once they run out), and a counter of
// its calls.
func script(outcomes ...error) (func(context.Context) (int, error), *atomic.Int64) {
	var n atomic.Int64
	return func(context.Context) (int, error) {
		i := int(n.Add(1)) - 1
		err := outcomes[min(i, len(outcomes)-1)]
		if err != nil {
			return 0, err
		}
		return i + 1, nil
	}, &n
}
