package breaker

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/internal/require"
)

// fakeClock is a Clock that moves only when told to.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

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

var errDown = errors.New("dependency down")

// statusError is an error with an HTTP status.
type statusError int

func (e statusError) Error() string   { return "status " + http(int(e)) }
func (e statusError) HTTPStatus() int { return int(e) }

func http(code int) string {
	return string(rune('0'+code/100)) + string(rune('0'+code/10%10)) + string(rune('0'+code%10))
}

func mustNew(t testing.TB, c Config) *Breaker {
	t.Helper()
	b, err := New(c)
	require.NoError(t, err)
	return b
}

func fail(context.Context) error    { return errDown }
func succeed(context.Context) error { return nil }

// run makes n calls with op and returns how many were rejected.
func run(b *Breaker, n int, op func(context.Context) error) (rejected int) {
	for range n {
		if err := b.Do(context.Background(), op); errors.Is(err, ErrOpen) {
			rejected++
		}
	}
	return rejected
}

// zeroRand makes the jitter take nothing off the open wait.
func zeroRand() float64 { return 0 }
