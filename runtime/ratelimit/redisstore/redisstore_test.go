package redisstore_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilint/resilint/runtime/ratelimit"
	"github.com/resilint/resilint/runtime/ratelimit/redisstore"
)

var epoch = time.Unix(1_700_000_040, 0)

func TestNew(t *testing.T) {
	_, err := redisstore.New(redisstore.Config{})
	if !errors.Is(err, redisstore.ErrInvalidConfig) || err.Error() != "redisstore: invalid config: Client is nil" {
		t.Errorf("%v", err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	_, err = redisstore.New(redisstore.Config{Client: rdb, Prefix: "app:{x}:"})
	if !errors.Is(err, redisstore.ErrInvalidConfig) {
		t.Errorf("%v", err)
	}
}

// TestKeysShareASlot: both windows of a key are hash-tagged by the key, so
// a script that touches both runs on Redis Cluster; different keys spread.
func TestKeysShareASlot(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	s, _ := redisstore.New(redisstore.Config{Client: rdb})
	for key, want := range map[string]string{
		"user:123": "ratelimit:{user:123}:42",
		"a{b}c":    "ratelimit:{a%7Bb%7Dc}:42",
		"50%":      "ratelimit:{50%25}:42",
		"":         "ratelimit:{}:42",
	} {
		if got := s.Key(key, 42); got != want {
			t.Errorf("Key(%q) = %q, want %q", key, got, want)
		}
	}
	slots := map[uint16]bool{}
	for i := range 100 {
		k := "user:" + strconv.Itoa(i)
		a, b := s.Key(k, 1000), s.Key(k, 999)
		if slot(a) != slot(b) || slot(a) != slot(k) {
			t.Fatalf("%s and %s in slots %d and %d", a, b, slot(a), slot(b))
		}
		slots[slot(a)] = true
	}
	if len(slots) < 90 {
		t.Errorf("100 keys in %d slots", len(slots))
	}
}

func newLimiter(t testing.TB, store ratelimit.Store, limit int, window time.Duration) *ratelimit.Limiter {
	t.Helper()
	cfg := ratelimit.Config{Limit: limit, Window: window, StoreTimeout: 30 * time.Second, OnStoreError: ratelimit.StoreFailureClosed}
	if store != nil {
		cfg.Store = store
	}
	l, err := ratelimit.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestSameDecisionsAsLocal: the script and the in-process store follow one
// rule; over random traffic they decide alike, with the same counts.
func TestSameDecisionsAsLocal(t *testing.T) {
	b := newBackend(t)
	// A window of a minute, so that the counts, which expire in real time
	// two windows after they are made, outlive a slow run of the test.
	remote := newLimiter(t, b.store, 7, time.Minute)
	local := newLimiter(t, nil, 7, time.Minute)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	at := epoch
	for i := range 600 {
		at = at.Add(time.Duration(r.Int64N(int64(7200 * time.Millisecond))))
		key := "k" + strconv.Itoa(r.IntN(3))
		n := r.IntN(3)
		dr, err := remote.AllowN(ctx, key, at, n)
		if err != nil {
			t.Fatal(err)
		}
		dl, _ := local.AllowN(ctx, key, at, n)
		if dr.Allowed != dl.Allowed || dr.Remaining() != dl.Remaining() || dr.RetryAfter() != dl.RetryAfter() || dr.Reset() != dl.Reset() {
			t.Fatalf("step %d (%s, n=%d, %v): Redis %v/%d/%v, local %v/%d/%v", i, key, n, at.Sub(epoch),
				dr.Allowed, dr.Remaining(), dr.RetryAfter(), dl.Allowed, dl.Remaining(), dl.RetryAfter())
		}
	}
}

// TestConcurrentNeverOverLimit: 1,000 concurrent requests for one key, at
// one instant, over a pool of connections: exactly the limit is admitted.
func TestConcurrentNeverOverLimit(t *testing.T) {
	b := newBackend(t)
	const limit = 100
	l := newLimiter(t, b.store, limit, time.Minute)
	at := time.Now()
	var admitted atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 1000 {
		wg.Go(func() {
			<-start
			d, err := l.AllowN(context.Background(), "user:123", at, 1)
			if err != nil {
				t.Error(err)
				return
			}
			if d.Allowed {
				admitted.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	if got := admitted.Load(); got != limit {
		t.Errorf("admitted %d of 1000, want exactly %d", got, limit)
	}
}

// getThenIncr is the rate limiter the script replaces: it reads both
// counts, decides, and increments in separate commands. between, if set,
// runs after the reads and before the write.
type getThenIncr struct {
	rdb     *redis.Client
	s       *redisstore.Store
	between func()
}

func (g *getThenIncr) Add(ctx context.Context, key string, now time.Time, window time.Duration, limit, n int) (ratelimit.Counts, error) {
	idx, elapsed := redisstore.Window(now, window)
	w := window.Microseconds()
	cur, err := g.rdb.Get(ctx, g.s.Key(key, idx)).Int64()
	if err != nil && !errors.Is(err, redis.Nil) {
		return ratelimit.Counts{}, err
	}
	prev, err := g.rdb.Get(ctx, g.s.Key(key, idx-1)).Int64()
	if err != nil && !errors.Is(err, redis.Nil) {
		return ratelimit.Counts{}, err
	}
	if g.between != nil {
		g.between()
	}
	if float64(prev)*float64(w-elapsed)+float64(cur+int64(n))*float64(w) > float64(limit)*float64(w) {
		return ratelimit.Counts{Previous: prev, Current: cur}, nil
	}
	cur, err = g.rdb.IncrBy(ctx, g.s.Key(key, idx), int64(n)).Result()
	if err != nil {
		return ratelimit.Counts{}, err
	}
	g.rdb.PExpire(ctx, g.s.Key(key, idx), 2*window)
	return ratelimit.Counts{Allowed: true, Previous: prev, Current: cur}, nil
}

// TestGetThenIncrLeaks: the same rule in separate commands admits more
// than the limit as soon as requests interleave. The interleaving is
// forced, not hoped for: every request reads before any writes.
func TestGetThenIncrLeaks(t *testing.T) {
	b := newBackend(t)
	const limit, concurrent = 10, 20
	var read sync.WaitGroup
	read.Add(concurrent)
	naive := &getThenIncr{rdb: b.rdb, s: b.store, between: func() {
		read.Done()
		read.Wait()
	}}
	l := newLimiter(t, naive, limit, time.Minute)
	at := time.Now()
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for range concurrent {
		wg.Go(func() {
			d, err := l.AllowN(context.Background(), "user:123", at, 1)
			if err != nil {
				t.Error(err)
			}
			if d.Allowed {
				admitted.Add(1)
			}
		})
	}
	wg.Wait()
	if got := admitted.Load(); got != concurrent {
		t.Errorf("GET then INCR admitted %d of %d with a limit of %d; the race should admit all", got, concurrent, limit)
	}
	// The script, under the same interleaving of callers, holds the limit.
	scripted := newLimiter(t, b.store, limit, time.Minute)
	admitted.Store(0)
	var ready sync.WaitGroup
	ready.Add(concurrent)
	for range concurrent {
		wg.Go(func() {
			ready.Done()
			ready.Wait()
			d, _ := scripted.AllowN(context.Background(), "user:456", at, 1)
			if d.Allowed {
				admitted.Add(1)
			}
		})
	}
	wg.Wait()
	if got := admitted.Load(); got != limit {
		t.Errorf("script admitted %d, want %d", got, limit)
	}
}

// TestNoScript: after SCRIPT FLUSH (or a restart), the next decision loads
// the script again and goes on.
func TestNoScript(t *testing.T) {
	b := newBackend(t)
	l := newLimiter(t, b.store, 2, time.Minute)
	ctx := context.Background()
	if d, err := l.AllowN(ctx, "k", epoch, 1); err != nil || !d.Allowed {
		t.Fatal(d, err)
	}
	if err := b.rdb.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if d, err := l.AllowN(ctx, "k", epoch, 1); err != nil || !d.Allowed || d.Remaining() != 0 {
		t.Fatal(d, err)
	}
	if d, err := l.AllowN(ctx, "k", epoch, 1); err != nil || d.Allowed {
		t.Fatal(d, err)
	}
}

// TestExpiry: a window's count expires within two windows; a peek (n=0)
// writes nothing.
func TestExpiry(t *testing.T) {
	b := newBackend(t)
	l := newLimiter(t, b.store, 5, 10*time.Second)
	ctx := context.Background()
	at := time.Now()
	l.AllowN(ctx, "k", at, 0)
	if n, _ := b.rdb.Keys(ctx, b.prefix+"*").Result(); len(n) != 0 {
		t.Fatalf("a peek wrote %v", n)
	}
	l.AllowN(ctx, "k", at, 1)
	idx, _ := redisstore.Window(at, 10*time.Second)
	ttl, err := b.rdb.PTTL(ctx, b.store.Key("k", idx)).Result()
	if err != nil || ttl <= 10*time.Second || ttl > 20*time.Second {
		t.Fatalf("TTL %v %v, want in (10s, 20s]", ttl, err)
	}
	l.AllowN(ctx, "k", at, 1)
	if ttl2, _ := b.rdb.PTTL(ctx, b.store.Key("k", idx)).Result(); ttl2 > ttl {
		t.Errorf("the expiry moved on a later request: %v after %v", ttl2, ttl)
	}
	if b.mini != nil {
		b.mini.FastForward(20 * time.Second)
		if n, _ := b.rdb.Keys(ctx, b.prefix+"*").Result(); len(n) != 0 {
			t.Errorf("after two windows: %v", n)
		}
	}
}

// TestRedisDown: with Redis gone the Limiter fails open to its local limit
// by default, and closed when told, within its StoreTimeout.
func TestRedisDown(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialerRetries: 1})
	defer rdb.Close()
	s, _ := redisstore.New(redisstore.Config{Client: rdb})
	ctx := context.Background()
	open, _ := ratelimit.New(ratelimit.Config{Limit: 1, Store: s})
	d, err := open.AllowN(ctx, "k", epoch, 1)
	if err != nil || !d.Allowed || !d.Fallback() {
		t.Errorf("open: %v %v", d.Allowed, err)
	}
	if d, _ := open.AllowN(ctx, "k", epoch, 1); d.Allowed {
		t.Error("open: the local limit does not hold")
	}
	closed, _ := ratelimit.New(ratelimit.Config{Limit: 1, Store: s, OnStoreError: ratelimit.StoreFailureClosed})
	if _, err := closed.AllowN(ctx, "k", epoch, 1); !errors.Is(err, ratelimit.ErrStoreUnavailable) || !strings.Contains(err.Error(), "redisstore") {
		t.Errorf("closed: %v", err)
	}
}
