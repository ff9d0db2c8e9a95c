package redisstore_test

import (
	"context"
	"crypto/rand"
	"os"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/resilint/resilint/runtime/ratelimit/redisstore"
)

// addrEnv names the environment variable that points the tests at a real
// redis-server (host:port). Without it they run against an embedded
// miniredis.
const addrEnv = "RESILINT_REDIS_ADDR"

type backend struct {
	mini   *miniredis.Miniredis // nil with a real server
	rdb    *redis.Client
	prefix string
	store  *redisstore.Store
}

func (b *backend) real() bool { return b.mini == nil }

func newBackend(t testing.TB) *backend {
	t.Helper()
	b := &backend{}
	addr := os.Getenv(addrEnv)
	if addr == "" {
		b.mini = miniredis.RunT(t)
		addr = b.mini.Addr()
	}
	b.rdb = redis.NewClient(&redis.Options{Addr: addr, PoolSize: 64, PoolTimeout: 30 * time.Second})
	t.Cleanup(func() { b.rdb.Close() })
	if b.real() {
		if err := b.rdb.Ping(context.Background()).Err(); err != nil {
			t.Fatalf("%s=%s is set but Redis does not answer: %v", addrEnv, addr, err)
		}
	}
	b.prefix = "resilint-test:" + rand.Text() + ":"
	s, err := redisstore.New(redisstore.Config{Client: b.rdb, Prefix: b.prefix})
	if err != nil {
		t.Fatal(err)
	}
	b.store = s
	if b.real() {
		t.Cleanup(func() { clean(t, addr, b.prefix) })
	}
	return b
}

// clean deletes the keys a test left on a real server.
func clean(t testing.TB, addr, prefix string) {
	direct := redis.NewClient(&redis.Options{Addr: addr})
	defer direct.Close()
	ctx := context.Background()
	iter := direct.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		direct.Del(ctx, iter.Val())
	}
	if err := iter.Err(); err != nil {
		t.Logf("cleaning up %s*: %v", prefix, err)
	}
}

// slot is the Redis Cluster hash slot of key: CRC16 (XMODEM) of the hash
// tag if the key has a non-empty one, else of the whole key, mod 16384.
func slot(key string) uint16 {
	if i := indexByte(key, '{'); i >= 0 {
		if j := indexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc ^= uint16(key[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc % 16384
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
