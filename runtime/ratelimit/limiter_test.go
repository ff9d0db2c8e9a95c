package ratelimit

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// epoch is a window boundary for every window used in the tests.
var epoch = time.Unix(1_700_000_040, 0)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func mustNew(t testing.TB, cfg Config) *Limiter {
	t.Helper()
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func allowAt(t testing.TB, l *Limiter, key string, at time.Time) Decision {
	t.Helper()
	d, err := l.AllowN(context.Background(), key, at, 1)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg   Config
		field string
	}{
		{Config{}, "Limit"},
		{Config{Limit: -1}, "Limit"},
		{Config{Limit: math.MaxInt32 + 1}, "Limit"},
		{Config{Limit: 1, Window: time.Microsecond}, "Window"},
		{Config{Limit: 1, Window: -time.Second}, "Window"},
		{Config{Limit: 1, Window: 8 * 24 * time.Hour}, "Window"},
		{Config{Limit: 1, StoreTimeout: -1}, "StoreTimeout"},
		{Config{Limit: 1, OnStoreError: 2}, "OnStoreError"},
		{Config{Limit: 1, FallbackLimit: -1}, "FallbackLimit"},
		{Config{Limit: 1, Shards: 3}, "Shards"},
		{Config{Limit: 1, Shards: 1 << 17}, "Shards"},
		{Config{Limit: 1, Shards: 16, MaxKeys: 8}, "MaxKeys"},
	} {
		_, err := New(tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("New(%+v) = %v, want a *ConfigError for %s", tc.cfg, err, tc.field)
		}
	}
	l := mustNew(t, Config{Limit: 5})
	if l.Limit() != 5 || l.Window() != DefaultWindow {
		t.Errorf("defaults: limit %d window %v", l.Limit(), l.Window())
	}
	_, err := New(Config{Limit: 0})
	if got, want := err.Error(), "ratelimit: invalid Config.Limit 0: must be in [1, 2147483647]"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
}

func TestFixedBurstThenRefused(t *testing.T) {
	l := mustNew(t, Config{Limit: 3, Window: time.Second})
	at := epoch.Add(100 * time.Millisecond)
	for i := range 3 {
		d := allowAt(t, l, "k", at)
		if !d.Allowed || d.Remaining() != 2-i {
			t.Fatalf("request %d: allowed %v remaining %d", i, d.Allowed, d.Remaining())
		}
	}
	d := allowAt(t, l, "k", at)
	if d.Allowed || d.Remaining() != 0 || d.Limit() != 3 {
		t.Fatalf("4th: allowed %v remaining %d limit %d", d.Allowed, d.Remaining(), d.Limit())
	}
	// The 3 requests become the previous window; one more fits once
	// 3×(1−q) + 1 ≤ 3, q = 1/3: 900ms to the boundary + 333.334ms.
	if got, want := d.RetryAfter(), 900*time.Millisecond+333334*time.Microsecond; got != want {
		t.Errorf("RetryAfter %v, want %v", got, want)
	}
	// The whole limit is back at the end of the next window.
	if got, want := d.Reset(), 1900*time.Millisecond; got != want {
		t.Errorf("Reset %v, want %v", got, want)
	}
	if !errors.Is(d.Err(), ErrLimited) {
		t.Errorf("Err %v", d.Err())
	}
	var le *LimitedError
	if !errors.As(d.Err(), &le) || le.RetryAfter() != d.RetryAfter() {
		t.Errorf("Err %#v", d.Err())
	}
	if d := allowAt(t, l, "k", at.Add(d.RetryAfter()-time.Microsecond)); d.Allowed {
		t.Error("admitted a microsecond before RetryAfter")
	}
	if d := allowAt(t, l, "k", at.Add(d.RetryAfter())); !d.Allowed {
		t.Error("refused at RetryAfter")
	}
	if allowAt(t, l, "other", at).Remaining() != 2 {
		t.Error("keys are not independent")
	}
}

func TestSlidingWeight(t *testing.T) {
	l := mustNew(t, Config{Limit: 10, Window: time.Minute})
	for range 10 {
		allowAt(t, l, "k", epoch.Add(30*time.Second))
	}
	// Half-way through the next window the previous 10 weigh 5.
	half := epoch.Add(90 * time.Second)
	for i := range 5 {
		if d := allowAt(t, l, "k", half); !d.Allowed {
			t.Fatalf("request %d refused", i)
		}
	}
	d := allowAt(t, l, "k", half)
	if d.Allowed {
		t.Fatal("6th admitted at weight 5+5")
	}
	// 10×(1−p) + 5 + 1 ≤ 10 at p = 0.6: 6s on.
	if got := d.RetryAfter(); got != 6*time.Second {
		t.Errorf("RetryAfter %v, want 6s", got)
	}
	// Remaining stays 0 for those 6s: the effective window.
	if got := d.Refill(); got != 6*time.Second {
		t.Errorf("Refill %v, want 6s", got)
	}
}

func TestCountAndPeek(t *testing.T) {
	l := mustNew(t, Config{Limit: 4, Window: time.Second})
	ctx := context.Background()
	if _, err := l.AllowN(ctx, "k", epoch, -1); !errors.Is(err, ErrNegativeCount) {
		t.Errorf("n=-1: %v", err)
	}
	d, _ := l.AllowN(ctx, "k", epoch, 5)
	if d.Allowed || d.RetryAfter() != math.MaxInt64 {
		t.Errorf("n > limit: allowed %v, RetryAfter %v", d.Allowed, d.RetryAfter())
	}
	d, _ = l.AllowN(ctx, "k", epoch, 3)
	if !d.Allowed || d.Remaining() != 1 {
		t.Errorf("n=3: %v %d", d.Allowed, d.Remaining())
	}
	d, _ = l.AllowN(ctx, "k", epoch, 0)
	if !d.Allowed || d.Remaining() != 1 {
		t.Errorf("peek: %v %d", d.Allowed, d.Remaining())
	}
	d, _ = l.AllowN(ctx, "k", epoch, 2)
	if d.Allowed || d.RetryAfter() <= 0 {
		t.Errorf("n=2 over: %v %v", d.Allowed, d.RetryAfter())
	}
}

// TestClockBack: a time before the key's window is judged at the start of
// that window, where the previous window weighs most; it never resets.
func TestClockBack(t *testing.T) {
	l := mustNew(t, Config{Limit: 2, Window: time.Second})
	allowAt(t, l, "k", epoch.Add(1500*time.Millisecond))
	allowAt(t, l, "k", epoch.Add(1500*time.Millisecond))
	if d := allowAt(t, l, "k", epoch.Add(200*time.Millisecond)); d.Allowed {
		t.Error("an earlier time got around the limit")
	}
}

func TestSystemClock(t *testing.T) {
	l := mustNew(t, Config{Limit: 1, Window: time.Hour})
	d, err := l.Allow(context.Background(), "k")
	if err != nil || !d.Allowed {
		t.Fatal(d, err)
	}
	if d, _ := l.Allow(context.Background(), "k"); d.Allowed {
		t.Fatal("second request in the same hour admitted")
	}
	// Allow's monotonic time and the wall clock agree on the window: a
	// request at time.Now() sees the count (at an hour's boundary, the
	// previous window still weighs nearly all of it).
	if d, _ := l.AllowN(context.Background(), "k", time.Now(), 1); d.Allowed {
		t.Fatal("AllowN at time.Now() does not see Allow's count")
	}
}

func TestInjectedClock(t *testing.T) {
	c := &fakeClock{t: epoch}
	l := mustNew(t, Config{Limit: 1, Window: time.Second, Clock: c})
	ctx := context.Background()
	if d, _ := l.Allow(ctx, "k"); !d.Allowed {
		t.Fatal("first refused")
	}
	d, _ := l.Allow(ctx, "k")
	if d.Allowed {
		t.Fatal("second admitted")
	}
	c.Advance(d.RetryAfter())
	if d, _ := l.Allow(ctx, "k"); !d.Allowed {
		t.Fatal("refused after RetryAfter")
	}
}

// TestWaitsAreExact checks Remaining, RetryAfter, Reset and Refill against
// their definitions on random states: each wait is the first microsecond
// at which its requests fit.
func TestWaitsAreExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		limit := 1 + r.Int64N(100)
		if i%10 == 0 {
			limit = 1 + r.Int64N(1_000_000)
		}
		window := 1000 + r.Int64N(100_000_000)
		d := Decision{
			limit: limit, n: 1 + r.Int64N(limit),
			prev: r.Int64N(limit + 1), cur: r.Int64N(limit + 1),
			elapsed: r.Int64N(window), window: window,
		}
		rem := int64(d.Remaining())
		if rem > 0 && !d.fits(rem) || rem < limit && d.fits(rem+1) {
			t.Fatalf("%+v: Remaining %d", d, rem)
		}
		for _, k := range []int64{d.n, limit, rem + 1} {
			if k > limit {
				continue
			}
			w := d.wait(k).Microseconds()
			if w == 0 {
				if !d.fits(k) {
					t.Fatalf("%+v: wait(%d) = 0 but it does not fit", d, k)
				}
				continue
			}
			if !d.fitsAt(k, d.elapsed+w) || d.fitsAt(k, d.elapsed+w-1) {
				t.Fatalf("%+v: wait(%d) = %dµs is not the first fit", d, k, w)
			}
		}
	}
}

func TestIdleKeysExpire(t *testing.T) {
	l := mustNew(t, Config{Limit: 5, Window: time.Second, Shards: 1, MaxKeys: 100})
	for i := range 50 {
		allowAt(t, l, "k"+string(rune('a'+i)), epoch)
	}
	if n := l.local.len(); n != 50 {
		t.Fatalf("%d keys, want 50", n)
	}
	allowAt(t, l, "x", epoch.Add(1100*time.Millisecond)) // next window: still needed as previous
	if n := l.local.len(); n != 51 {
		t.Fatalf("%d keys after one window, want 51", n)
	}
	allowAt(t, l, "y", epoch.Add(2100*time.Millisecond)) // two windows on
	if n := l.local.len(); n != 2 {
		t.Fatalf("%d keys after two windows, want 2 (x and y)", n)
	}
}

// TestFullStore: a full shard counts the keys it cannot hold together in
// its overflow counter; tracked keys keep their counts, and memory does
// not grow.
func TestFullStore(t *testing.T) {
	l := mustNew(t, Config{Limit: 3, Window: time.Second, Shards: 1, MaxKeys: 2})
	allowAt(t, l, "a", epoch)
	allowAt(t, l, "b", epoch)
	admitted := 0
	for i := range 10 {
		if allowAt(t, l, "new"+string(rune('0'+i)), epoch).Allowed {
			admitted++
		}
	}
	if admitted != 3 {
		t.Errorf("untracked keys admitted %d, want 3 (the limit, shared)", admitted)
	}
	if n := l.local.len(); n != 2 {
		t.Errorf("%d keys held, want 2", n)
	}
	for range 2 {
		if !allowAt(t, l, "a", epoch).Allowed {
			t.Error("a tracked key lost its quota")
		}
	}
	if allowAt(t, l, "a", epoch).Allowed {
		t.Error("a tracked key got more than its limit")
	}
	// Two windows on, the old keys are gone and new ones are tracked.
	if !allowAt(t, l, "new0", epoch.Add(2*time.Second)).Allowed || l.local.len() != 1 {
		t.Errorf("after expiry: %d keys", l.local.len())
	}
}

// TestConcurrentOneKey: however many goroutines ask at once, one key gets
// exactly its limit.
func TestConcurrentOneKey(t *testing.T) {
	l := mustNew(t, Config{Limit: 500, Window: time.Second})
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 250 {
				if allowAt(t, l, "k", epoch).Allowed {
					admitted.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if got := admitted.Load(); got != 500 {
		t.Errorf("admitted %d of 2000, want 500", got)
	}
}

func TestStoreFailureString(t *testing.T) {
	if StoreFailureOpen.String() != "open" || StoreFailureClosed.String() != "closed" || StoreFailure(7).String() != "StoreFailure(7)" {
		t.Error("String")
	}
}

// TestTableKeepsCounts: counts survive the table's growth and the sweeps
// that shrink it.
func TestTableKeepsCounts(t *testing.T) {
	l := mustNew(t, Config{Limit: 2, Window: time.Second, Shards: 1, MaxKeys: 5000})
	key := func(i int) string { return "user:" + strconv.Itoa(i) }
	for i := range 3000 {
		allowAt(t, l, key(i), epoch)
		allowAt(t, l, key(i), epoch)
	}
	for i := range 3000 {
		if allowAt(t, l, key(i), epoch).Allowed {
			t.Fatalf("key %d: a third request admitted", i)
		}
	}
	// In the next window, the even keys come back: the previous 2 weigh
	// 2×(1−0.1), so still nothing fits.
	for i := 0; i < 3000; i += 2 {
		if allowAt(t, l, key(i), epoch.Add(1100*time.Millisecond)).Allowed {
			t.Fatalf("key %d admitted", i)
		}
	}
	// Two windows on, only the keys seen in the last window are held.
	at := epoch.Add(2100 * time.Millisecond)
	allowAt(t, l, "other", at)
	if n := l.local.len(); n != 1501 {
		t.Fatalf("%d keys held, want 1501", n)
	}
	if n := len(l.local.shards[0].slots); n > 4096 {
		t.Errorf("table of %d slots for 1501 keys: not shrunk", n)
	}
	for i := range 3000 {
		d := allowAt(t, l, key(i), at)
		if !d.Allowed || d.Remaining() != 1 {
			t.Fatalf("key %d after the sweep: %v, remaining %d", i, d.Allowed, d.Remaining())
		}
	}
}
