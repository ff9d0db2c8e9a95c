package ratelimitbench

import (
	"context"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	"github.com/resilint/resilint/runtime/ratelimit"
	"github.com/resilint/resilint/runtime/ratelimit/redisstore"
)

const (
	bigLimit = 1 << 30 // per second: never reached, every request admitted
	numKeys  = 10_000
)

var (
	sinkBool bool
	keys     = func() []string {
		k := make([]string, numKeys)
		for i := range k {
			k[i] = "user:" + strconv.Itoa(1_000_000+i)
		}
		return k
	}()
)

func newResilint(b *testing.B, store ratelimit.Store) *ratelimit.Limiter {
	l, err := ratelimit.New(ratelimit.Config{Limit: bigLimit, Window: time.Second, Store: store, StoreTimeout: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	return l
}

func newXRate() *rate.Limiter { return rate.NewLimiter(bigLimit, bigLimit) }

// keyedXRate is the usual keyed use of x/time/rate: a limiter per key in a
// sync.Map, made on first use.
type keyedXRate struct{ m sync.Map }

func (k *keyedXRate) allow(key string) bool {
	v, ok := k.m.Load(key)
	if !ok {
		v, _ = k.m.LoadOrStore(key, newXRate())
	}
	return v.(*rate.Limiter).Allow()
}

func BenchmarkAllow(b *testing.B) {
	ctx := context.Background()
	b.Run("impl=resilint", func(b *testing.B) {
		l := newResilint(b, nil)
		b.ReportAllocs()
		cpu := meterCPU(b)
		defer cpu.report()
		for b.Loop() {
			d, _ := l.Allow(ctx, "user:123")
			sinkBool = d.Allowed
		}
		if !sinkBool {
			b.Fatal("refused")
		}
	})
	b.Run("impl=x-time-rate", func(b *testing.B) {
		l := newXRate()
		b.ReportAllocs()
		cpu := meterCPU(b)
		defer cpu.report()
		for b.Loop() {
			sinkBool = l.Allow()
		}
		if !sinkBool {
			b.Fatal("refused")
		}
	})
}

func BenchmarkAllowParallel(b *testing.B) {
	ctx := context.Background()
	b.Run("impl=resilint", func(b *testing.B) {
		l := newResilint(b, nil)
		b.ReportAllocs()
		cpu := meterCPU(b)
		defer cpu.report()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				d, _ := l.Allow(ctx, "user:123")
				if !d.Allowed {
					b.Error("refused")
				}
			}
		})
	})
	b.Run("impl=x-time-rate", func(b *testing.B) {
		l := newXRate()
		b.ReportAllocs()
		cpu := meterCPU(b)
		defer cpu.report()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if !l.Allow() {
					b.Error("refused")
				}
			}
		})
	})
}

func BenchmarkAllowKeyed(b *testing.B) {
	ctx := context.Background()
	b.Run("impl=resilint", func(b *testing.B) {
		l := newResilint(b, nil)
		b.ReportAllocs()
		cpu := meterCPU(b)
		defer cpu.report()
		i := 0
		for b.Loop() {
			d, _ := l.Allow(ctx, keys[i%numKeys])
			sinkBool = d.Allowed
			i++
		}
	})
	b.Run("impl=x-time-rate", func(b *testing.B) {
		k := &keyedXRate{}
		b.ReportAllocs()
		cpu := meterCPU(b)
		defer cpu.report()
		i := 0
		for b.Loop() {
			sinkBool = k.allow(keys[i%numKeys])
			i++
		}
	})
}

func BenchmarkAllowKeyedParallel(b *testing.B) {
	ctx := context.Background()
	b.Run("impl=resilint", func(b *testing.B) {
		l := newResilint(b, nil)
		var g atomic.Int64
		b.ReportAllocs()
		cpu := meterCPU(b)
		defer cpu.report()
		b.RunParallel(func(pb *testing.PB) {
			i := int(g.Add(1)) * 7919
			for pb.Next() {
				d, _ := l.Allow(ctx, keys[i%numKeys])
				if !d.Allowed {
					b.Error("refused")
				}
				i++
			}
		})
	})
	b.Run("impl=x-time-rate", func(b *testing.B) {
		k := &keyedXRate{}
		var g atomic.Int64
		b.ReportAllocs()
		cpu := meterCPU(b)
		defer cpu.report()
		b.RunParallel(func(pb *testing.PB) {
			i := int(g.Add(1)) * 7919
			for pb.Next() {
				if !k.allow(keys[i%numKeys]) {
					b.Error("refused")
				}
				i++
			}
		})
	})
}

// redisClient returns a client for RESILINT_REDIS_ADDR, or skips.
func redisClient(b *testing.B) *redis.Client {
	addr := os.Getenv("RESILINT_REDIS_ADDR")
	if addr == "" {
		b.Skip("set RESILINT_REDIS_ADDR to a redis-server")
	}
	rdb := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 16})
	b.Cleanup(func() { rdb.Close() })
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		b.Fatal(err)
	}
	return rdb
}

func redisPeers(b *testing.B) (resilint func(ctx context.Context, key string) bool, redisRate func(ctx context.Context, key string) bool) {
	rdb := redisClient(b)
	s, err := redisstore.New(redisstore.Config{Client: rdb, Prefix: "bench:resilint:"})
	if err != nil {
		b.Fatal(err)
	}
	l := newResilint(b, s)
	rr := redis_rate.NewLimiter(rdb)
	lim := redis_rate.PerSecond(bigLimit)
	resilint = func(ctx context.Context, key string) bool {
		d, err := l.Allow(ctx, key)
		if err != nil || d.Fallback() {
			b.Fatal("store failed", err)
		}
		return d.Allowed
	}
	redisRate = func(ctx context.Context, key string) bool {
		res, err := rr.Allow(ctx, "bench:redis_rate:"+key, lim)
		if err != nil {
			b.Fatal(err)
		}
		return res.Allowed > 0
	}
	return resilint, redisRate
}

func BenchmarkRedis(b *testing.B) {
	ctx := context.Background()
	resilint, redisRate := redisPeers(b)
	for _, p := range []struct {
		name  string
		allow func(context.Context, string) bool
	}{{"resilint", resilint}, {"redis_rate", redisRate}} {
		b.Run("impl="+p.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := meterCPU(b)
			defer cpu.report()
			i := 0
			for b.Loop() {
				if !p.allow(ctx, keys[i%numKeys]) {
					b.Fatal("refused")
				}
				i++
			}
		})
	}
}

func BenchmarkRedisParallel(b *testing.B) {
	ctx := context.Background()
	resilint, redisRate := redisPeers(b)
	for _, p := range []struct {
		name  string
		allow func(context.Context, string) bool
	}{{"resilint", resilint}, {"redis_rate", redisRate}} {
		b.Run("impl="+p.name, func(b *testing.B) {
			var g atomic.Int64
			b.ReportAllocs()
			cpu := meterCPU(b)
			defer cpu.report()
			b.SetParallelism(4) // network waits: more goroutines than cores
			b.RunParallel(func(pb *testing.PB) {
				i := int(g.Add(1)) * 7919
				for pb.Next() {
					if !p.allow(ctx, keys[i%numKeys]) {
						b.Error("refused")
					}
					i++
				}
			})
		})
	}
}
