package bulkhead

import (
	"context"
	"errors"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"
)

func mustNew(t testing.TB, c Config) *Bulkhead {
	t.Helper()
	b, err := New(c)
	require.NoError(t, err)
	return b
}

var ctx = context.Background()

func TestConfigValidation(t *testing.T) {
	for _, tc := range []struct {
		c     Config
		field string
		msg   string
	}{
		{Config{MaxConcurrent: -1}, "MaxConcurrent", "bulkhead: invalid Config.MaxConcurrent -1: must not be negative"},
		{Config{MaxConcurrent: math.MaxInt32 + 1}, "MaxConcurrent", "must be at most 2147483647"},
		{Config{MaxWait: -time.Second}, "MaxWait", "bulkhead: invalid Config.MaxWait -1s: must not be negative"},
		{Config{MaxWaiting: -3}, "MaxWaiting", "must not be negative"},
		{Config{MaxWaiting: math.MaxInt32 + 1}, "MaxWaiting", "must be at most 2147483647"},
	} {
		b, err := New(tc.c)
		assert.Nil(t, b)
		var ce *ConfigError
		require.True(t, errors.As(err, &ce), "%+v", tc.c)
		assert.Equal(t, tc.field, ce.Field)
		assert.Contains(t, err.Error(), tc.msg)
	}
	b := mustNew(t, Config{})
	assert.Equal(t, DefaultMaxConcurrent, b.Size())
}

func TestFailFast(t *testing.T) {
	b := mustNew(t, Config{MaxConcurrent: 2})
	require.NoError(t, b.Acquire(ctx))
	require.True(t, b.TryAcquire())
	assert.Equal(t, 2, b.InUse())
	assert.ErrorIs(t, b.Acquire(ctx), ErrFull)
	assert.False(t, b.TryAcquire())
	called := false
	assert.ErrorIs(t, b.Do(ctx, func(context.Context) error { called = true; return nil }), ErrFull)
	assert.False(t, called)
	assert.Equal(t, uint64(3), b.Rejected())
	b.Release()
	require.NoError(t, b.Acquire(ctx))
	b.Release()
	b.Release()
	assert.Zero(t, b.InUse())
}

func TestDoneContextNeverAcquires(t *testing.T) {
	b := mustNew(t, Config{MaxConcurrent: 1})
	c, cancel := context.WithCancel(ctx)
	cancel()
	assert.ErrorIs(t, b.Acquire(c), context.Canceled)
	assert.Zero(t, b.InUse())
	assert.Zero(t, b.Rejected(), "a done context is not a rejection")
}

func TestDoReleasesAndPassesErrors(t *testing.T) {
	b := mustNew(t, Config{MaxConcurrent: 1})
	errX := errors.New("x")
	assert.ErrorIs(t, b.Do(ctx, func(context.Context) error {
		assert.Equal(t, 1, b.InUse())
		return errX
	}), errX)
	assert.Zero(t, b.InUse())
	assert.Panics(t, func() { _ = b.Do(ctx, func(context.Context) error { panic("boom") }) })
	assert.Zero(t, b.InUse(), "released on panic")
}

func TestReleaseWithoutAcquirePanics(t *testing.T) {
	b := mustNew(t, Config{})
	assert.PanicsWithValue(t, "bulkhead: Release without a matching Acquire", b.Release)
}

func TestWaitTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := mustNew(t, Config{MaxConcurrent: 1, MaxWait: 100 * time.Millisecond})
		require.NoError(t, b.Acquire(ctx))
		start := time.Now()
		err := b.Acquire(ctx)
		assert.ErrorIs(t, err, ErrFull)
		assert.Equal(t, 100*time.Millisecond, time.Since(start))
		assert.Equal(t, uint64(1), b.Rejected())
		assert.Equal(t, 0, b.Waiting())
		assert.Equal(t, 1, b.InUse())
	})
}

func TestWaiterGetsTheReleasedSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := mustNew(t, Config{MaxConcurrent: 1, MaxWait: time.Second})
		require.NoError(t, b.Acquire(ctx))
		var got atomic.Bool
		go func() {
			if b.Acquire(ctx) == nil {
				got.Store(true)
			}
		}()
		synctest.Wait()
		assert.Equal(t, 1, b.Waiting())
		assert.False(t, b.TryAcquire(), "no barging past a waiter")
		time.Sleep(300 * time.Millisecond) // fake time: the waiter is still within MaxWait
		b.Release()
		synctest.Wait()
		assert.True(t, got.Load())
		assert.Equal(t, 1, b.InUse(), "the slot went to the waiter")
		assert.Zero(t, b.Waiting())
		b.Release()
	})
}

func TestFIFO(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := mustNew(t, Config{MaxConcurrent: 1, MaxWait: time.Hour})
		require.NoError(t, b.Acquire(ctx))
		var order []int
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				require.NoError(t, b.Acquire(ctx))
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
				b.Release()
			}()
			synctest.Wait() // i is queued before i+1 starts
		}
		assert.Equal(t, 6, b.Waiting())
		b.Release()
		wg.Wait()
		assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, order)
		assert.Zero(t, b.InUse())
	})
}

func TestCancelWhileWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := mustNew(t, Config{MaxConcurrent: 1, MaxWait: time.Hour})
		require.NoError(t, b.Acquire(ctx))
		c, cancel := context.WithCancel(ctx)
		errc := make(chan error)
		go func() { errc <- b.Acquire(c) }()
		go func() { errc <- b.Acquire(ctx) }()
		synctest.Wait()
		require.Equal(t, 2, b.Waiting())
		cancel()
		assert.ErrorIs(t, <-errc, context.Canceled)
		assert.Equal(t, 1, b.Waiting())
		b.Release() // goes to the second waiter
		assert.NoError(t, <-errc)
		assert.Equal(t, 1, b.InUse())
		assert.Zero(t, b.Rejected())
		b.Release()
	})
}

func TestDeadlineWhileWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := mustNew(t, Config{MaxConcurrent: 1, MaxWait: time.Hour})
		require.NoError(t, b.Acquire(ctx))
		c, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		start := time.Now()
		assert.ErrorIs(t, b.Acquire(c), context.DeadlineExceeded)
		assert.Equal(t, time.Second, time.Since(start))
		assert.Zero(t, b.Waiting())
	})
}

func TestMaxWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := mustNew(t, Config{MaxConcurrent: 1, MaxWait: time.Second, MaxWaiting: 2})
		require.NoError(t, b.Acquire(ctx))
		for range 2 {
			go func() { _ = b.Acquire(ctx) }()
		}
		synctest.Wait()
		assert.ErrorIs(t, b.Acquire(ctx), ErrFull, "a third waiter is turned away at once")
		assert.Equal(t, uint64(1), b.Rejected())
		time.Sleep(time.Second)
		synctest.Wait()
		assert.Equal(t, uint64(3), b.Rejected())
	})
}

// TestHandOffRacesWithGivingUp releases the slot at the very moment the
// waiter's MaxWait ends: whichever wins, the slot is not lost.
func TestHandOffRacesWithGivingUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for range 100 {
			b := mustNew(t, Config{MaxConcurrent: 1, MaxWait: time.Second})
			require.NoError(t, b.Acquire(ctx))
			errc := make(chan error)
			go func() { errc <- b.Acquire(ctx) }()
			time.Sleep(time.Second)
			b.Release()
			if err := <-errc; err == nil {
				b.Release()
			} else {
				require.ErrorIs(t, err, ErrFull)
			}
			require.Zero(t, b.InUse())
			require.Zero(t, b.Waiting())
		}
	})
}

func TestStress(t *testing.T) {
	for _, c := range []Config{
		{MaxConcurrent: 3},
		{MaxConcurrent: 3, MaxWait: time.Millisecond},
		{MaxConcurrent: 1, MaxWait: time.Hour},
		{MaxConcurrent: 4, MaxWait: 200 * time.Microsecond, MaxWaiting: 5},
	} {
		b := mustNew(t, c)
		var in, maxIn, ok, full, cancelled atomic.Int64
		var wg sync.WaitGroup
		for w := range 32 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 300 {
					c, cancel := ctx, context.CancelFunc(func() {})
					if (w+i)%5 == 0 {
						c, cancel = context.WithTimeout(ctx, 50*time.Microsecond)
					}
					err := b.Do(c, func(context.Context) error {
						n := in.Add(1)
						for m := maxIn.Load(); n > m && !maxIn.CompareAndSwap(m, n); m = maxIn.Load() {
						}
						for range i % 4 {
							runtime.Gosched() // hold the slot a little while
						}
						in.Add(-1)
						return nil
					})
					cancel()
					switch {
					case err == nil:
						ok.Add(1)
					case errors.Is(err, ErrFull):
						full.Add(1)
					case errors.Is(err, context.DeadlineExceeded):
						cancelled.Add(1)
					default:
						t.Errorf("unexpected %v", err)
					}
				}
			}()
		}
		wg.Wait()
		assert.LessOrEqual(t, maxIn.Load(), int64(b.Size()), "%+v", c)
		assert.Zero(t, b.InUse())
		assert.Zero(t, b.Waiting())
		assert.Equal(t, uint64(full.Load()), b.Rejected())
		assert.Equal(t, int64(32*300), ok.Load()+full.Load()+cancelled.Load())
		t.Logf("%+v: %d ok, %d full, %d cancelled, max in flight %d", c, ok.Load(), full.Load(), cancelled.Load(), maxIn.Load())
	}
}

func TestNoAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	b := mustNew(t, Config{MaxConcurrent: 4})
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		if b.Acquire(ctx) == nil {
			b.Release()
		}
	}))
	op := func(context.Context) error { return nil }
	assert.Zero(t, testing.AllocsPerRun(1000, func() { _ = b.Do(ctx, op) }))
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		if b.TryAcquire() {
			b.Release()
		}
	}))
}
