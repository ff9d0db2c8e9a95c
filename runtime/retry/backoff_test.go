package retry

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"
)

// fixedSource returns the same fraction of n every time: 0 gives the
// smallest value, 1 the largest.
type fixedSource float64

func (f fixedSource) Int64N(n int64) int64 {
	return min(int64(float64(n)*float64(f)), n-1)
}

// badSource returns values outside [0, n), as a buggy injected source might.
type badSource int64

func (b badSource) Int64N(int64) int64 { return int64(b) }

func TestBackoff(t *testing.T) {
	const ms = time.Millisecond
	tests := []struct {
		base, max time.Duration
		attempt   int
		want      time.Duration
	}{
		{100 * ms, 10 * time.Second, 0, 100 * ms},
		{100 * ms, 10 * time.Second, 1, 200 * ms},
		{100 * ms, 10 * time.Second, 3, 800 * ms},
		{100 * ms, 10 * time.Second, 7, 10 * time.Second}, // 12.8s capped
		{100 * ms, 10 * time.Second, -5, 100 * ms},
		{100 * ms, 10 * time.Second, 62, 10 * time.Second},
		{100 * ms, 10 * time.Second, 63, 10 * time.Second},
		{100 * ms, 10 * time.Second, 64, 10 * time.Second},
		{100 * ms, 10 * time.Second, 1 << 20, 10 * time.Second},
		{100 * ms, 10 * time.Second, math.MaxInt, 10 * time.Second},
		{1, math.MaxInt64, 62, 1 << 62},
		{1, math.MaxInt64, 63, math.MaxInt64},
		{1, 0, 10, 1024},                                     // no cap
		{1, -1, 70, math.MaxInt64},                           // no cap, saturates
		{time.Second, time.Millisecond, 0, time.Millisecond}, // base above cap
		{0, time.Second, 3, 0},
		{-time.Second, time.Second, 3, 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Backoff(tt.base, tt.max, tt.attempt), "Backoff(%v, %v, %d)", tt.base, tt.max, tt.attempt)
	}
}

// TestBackoffProperties: for every k up to 1<<20 the cap is positive, never
// above max, never overflows, and never decreases as k grows.
func TestBackoffProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		base := time.Duration(rng.Int64N(int64(time.Hour))) + 1
		maxD := base + time.Duration(rng.Int64N(math.MaxInt64-int64(base)))
		prev := time.Duration(0)
		for k := 0; k <= 1<<20; k += 1 + k/64 {
			c := Backoff(base, maxD, k)
			require.Positive(t, c, "base %v max %v k %d", base, maxD, k)
			require.LessOrEqual(t, c, maxD)
			require.GreaterOrEqual(t, c, prev)
			prev = c
		}
		assert.Equal(t, maxD, Backoff(base, maxD, 1<<20))
	}
}

// TestDelayWithinCap: every delay the policy draws lies in [0, cap], for
// every jitter, every k up to 1<<20, and extreme sources.
func TestDelayWithinCap(t *testing.T) {
	sources := []Source{nil, fixedSource(0), fixedSource(1), fixedSource(0.5), badSource(-1), badSource(math.MaxInt64), rand.New(rand.NewPCG(3, 4))}
	for _, j := range []Jitter{JitterFull, JitterEqual, JitterDecorrelated, JitterNone} {
		for _, src := range sources {
			p := &Policy{BaseDelay: 3 * time.Millisecond, MaxDelay: 5 * time.Second, Jitter: j, Rand: src}
			var prev time.Duration
			for k := 0; k <= 1<<20; k += 1 + k/16 {
				d := p.delay(k, prev)
				c := Backoff(p.BaseDelay, p.MaxDelay, k)
				if j == JitterDecorrelated {
					c = p.MaxDelay
					require.GreaterOrEqual(t, d, p.BaseDelay)
				}
				require.GreaterOrEqual(t, d, time.Duration(0), "jitter %v k %d", j, k)
				require.LessOrEqual(t, d, c, "jitter %v k %d", j, k)
				if j == JitterEqual {
					require.GreaterOrEqual(t, d, c/2)
				}
				prev = d
			}
		}
	}
}

func TestDelayDeterministic(t *testing.T) {
	p := &Policy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second, Rand: fixedSource(0.5)}
	got := []time.Duration{}
	for k := range 5 {
		got = append(got, p.delay(k, 0))
	}
	assert.Equal(t, []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 500 * time.Millisecond}, got)

	p.Jitter = JitterEqual
	assert.Equal(t, 75*time.Millisecond, p.delay(0, 0))
	p.Jitter = JitterNone
	assert.Equal(t, 400*time.Millisecond, p.delay(2, 0))
	p.Jitter = JitterDecorrelated
	assert.Equal(t, 200*time.Millisecond, p.delay(0, 0))                    // [100ms, 300ms], half way
	assert.Equal(t, 550*time.Millisecond, p.delay(1, 400*time.Millisecond)) // [100ms, 1s (1.2s capped)], half way
	assert.Equal(t, 100*time.Millisecond, (&Policy{Jitter: JitterDecorrelated, Rand: fixedSource(0)}).delay(9, time.Hour))

	// Two policies with the same seeded source draw the same delays.
	a := &Policy{Rand: rand.New(rand.NewPCG(7, 7))}
	b := &Policy{Rand: rand.New(rand.NewPCG(7, 7))}
	for k := range 10 {
		assert.Equal(t, a.delay(k, 0), b.delay(k, 0))
	}
}

func TestFullJitter(t *testing.T) {
	assert.Zero(t, FullJitter(0))
	assert.Zero(t, FullJitter(-time.Second))
	assert.Zero(t, EqualJitter(-1))
	seen := map[time.Duration]bool{}
	for range 2000 {
		d := FullJitter(3)
		require.True(t, d >= 0 && d <= 3, d)
		seen[d] = true
		e := EqualJitter(10 * time.Second)
		require.True(t, e >= 5*time.Second && e <= 10*time.Second, e)
		m := FullJitter(math.MaxInt64)
		require.GreaterOrEqual(t, m, time.Duration(0))
	}
	assert.Len(t, seen, 4, "every value in [0, 3] is drawn")
}

func TestSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		require.NoError(t, Sleep(context.Background(), time.Second))
		assert.Equal(t, time.Second, time.Since(start))

		ctx, cancel := context.WithCancel(context.Background())
		start = time.Now()
		require.NoError(t, Sleep(ctx, time.Minute))
		assert.Equal(t, time.Minute, time.Since(start))

		// Cancelled while sleeping: returns at once with ctx.Err().
		go func() {
			time.Sleep(time.Second)
			cancel()
		}()
		start = time.Now()
		assert.ErrorIs(t, Sleep(ctx, time.Hour), context.Canceled)
		assert.Equal(t, time.Second, time.Since(start))

		// Already cancelled, even for no delay.
		assert.ErrorIs(t, Sleep(ctx, 0), context.Canceled)
		assert.ErrorIs(t, Sleep(ctx, time.Second), context.Canceled)

		// Never past the deadline: returns at once.
		ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		start = time.Now()
		assert.ErrorIs(t, Sleep(ctx, 10*time.Second), ErrDeadline)
		assert.ErrorIs(t, Sleep(ctx, time.Hour), ErrDeadline)
		assert.Zero(t, time.Since(start))
		require.NoError(t, Sleep(ctx, 9*time.Second))
		assert.Equal(t, 9*time.Second, time.Since(start))
		require.NoError(t, Sleep(ctx, -time.Second))
	})
}

func TestJitterString(t *testing.T) {
	assert.Equal(t, "full", JitterFull.String())
	assert.Equal(t, "equal", JitterEqual.String())
	assert.Equal(t, "decorrelated", JitterDecorrelated.String())
	assert.Equal(t, "none", JitterNone.String())
	assert.Equal(t, "Jitter(9)", Jitter(9).String())
}

func TestPolicyDelaySchedule(t *testing.T) {
	p := &Policy{BaseDelay: time.Second, MaxDelay: 8 * time.Second, Jitter: JitterNone}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
	for k, w := range want {
		if got := p.Delay(k, 0, nil); got != w {
			t.Errorf("Delay(%d) = %v, want %v", k, got, w)
		}
	}
	full := &Policy{BaseDelay: time.Second, MaxDelay: 8 * time.Second}
	for k := range 6 {
		hi := Backoff(time.Second, 8*time.Second, k)
		if got := full.Delay(k, 0, maxSource{}); got != hi {
			t.Errorf("full jitter Delay(%d) with the top draw = %v, want the cap %v", k, got, hi)
		}
		if got := full.Delay(k, 0, zeroSource{}); got != 0 {
			t.Errorf("full jitter Delay(%d) with the bottom draw = %v, want 0", k, got)
		}
	}
	if got := (*Policy)(nil).Delay(0, 0, maxSource{}); got != DefaultBaseDelay {
		t.Errorf("nil policy Delay(0) = %v, want %v", got, DefaultBaseDelay)
	}
}

type maxSource struct{}

func (maxSource) Int64N(n int64) int64 { return n - 1 }

type zeroSource struct{}

func (zeroSource) Int64N(int64) int64 { return 0 }
