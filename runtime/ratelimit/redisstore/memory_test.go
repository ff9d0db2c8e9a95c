package redisstore_test

import (
	"context"
	"crypto/rand"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/ratelimit/redisstore"
)

// redisKeyBudget is the stated budget, in bytes as MEMORY USAGE counts
// them, of one window's count of a key "user:" and 7 digits under the
// default-length prefix. An active key has at most two such counts.
const redisKeyBudget = 96

// TestRedisMemory measures MEMORY USAGE of the counts on a real
// redis-server (miniredis has no MEMORY USAGE).
func TestRedisMemory(t *testing.T) {
	b := newBackend(t)
	if !b.real() {
		t.Skip("needs a real redis-server: set " + addrEnv)
	}
	ctx := context.Background()
	// A prefix as long as DefaultPrefix, "ratelimit:".
	prefix := "rlt" + rand.Text()[:6] + ":"
	t.Cleanup(func() { clean(t, os.Getenv(addrEnv), prefix) })
	s, err := redisstore.New(redisstore.Config{Client: b.rdb, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	l := newLimiter(t, s, 60, time.Minute)
	at := time.Now()
	const n = 1000
	for i := range n {
		if _, err := l.AllowN(ctx, "user:"+strconv.Itoa(1_000_000+i), at, 1); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := b.rdb.Keys(ctx, prefix+"*").Result()
	if err != nil || len(keys) != n {
		t.Fatalf("%d keys, %v", len(keys), err)
	}
	total := int64(0)
	for _, k := range keys {
		u, err := b.rdb.MemoryUsage(ctx, k).Result()
		if err != nil {
			t.Fatal(err)
		}
		total += u
	}
	per := float64(total) / n
	t.Logf("Redis: %.1f bytes per window count (MEMORY USAGE, key %q), %.1f per key active in two windows", per, keys[0], 2*per)
	if per > redisKeyBudget {
		t.Errorf("%.1f bytes per count, budget %d", per, redisKeyBudget)
	}
}
