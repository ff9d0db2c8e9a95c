// Package retryafterfix holds 429s decided by a Redis counter whose time to
// live the code states: the fix sets Retry-After to it.
package retryafterfix

import (
	"context"
	"net/http"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"

	"ratelimit/respond"
	"ratelimit/retryafterfix/counter"
)

// count counts the user's requests in a window of 60 seconds (a counter
// with a time to live, through redigo).
func count(pool *redis.Pool, user string) (int, error) {
	c := pool.Get()
	defer c.Close()
	key := "rl:" + user
	n, err := redis.Int(c.Do("INCR", key)) // want `INCR of key, then EXPIRE in a separate command`
	if err != nil {
		return 0, err
	}
	if n == 1 {
		c.Do("EXPIRE", key, 60)
	}
	return n, nil
}

// The handler's condition uses a variable the counter's result is
// assigned to: Retry-After 60.
func limited(pool *redis.Pool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := count(pool, r.Header.Get("X-User"))
		if err == nil && n > 100 {
			http.Error(w, "rate limited", http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
			return
		}
		next.ServeHTTP(w, r)
	})
}

// countMs sets the expiry in milliseconds: 1500 ms is 2 whole seconds.
func countMs(c redis.Conn, user string) bool {
	key := "rlms:" + user
	n, _ := redis.Int(c.Do("INCR", key)) // want `INCR of key, then PEXPIRE in a separate command`
	c.Do("PEXPIRE", key, 1500)
	return n <= 10
}

// The call is in the condition itself, the status written with
// WriteHeader.
func limitedMs(c redis.Conn) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !countMs(c, r.RemoteAddr) {
			w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
		}
	}
}

// go-redis, in the handler itself: the reply of INCR decides, the key
// expires after a time.Duration.
type server struct{ rdb *goredis.Client }

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	key := "rl:" + r.RemoteAddr
	n, err := s.rdb.Incr(ctx, key).Result() // want `INCR of key, then EXPIRE in a separate command`
	if err != nil {
		http.Error(w, "store down", http.StatusInternalServerError)
		return
	}
	s.rdb.Expire(ctx, key, 90*time.Second)
	if n > 30 {
		http.Error(w, "slow down", http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
		return
	}
}

// --- near misses: reported, no fix ---

// Two counters with different times to live decide: which one refused is
// not known.
func twoWindows(c redis.Conn, user string) bool {
	m, _ := redis.Int(c.Do("INCR", "m:"+user)) // want `INCR of "m:" \+ user, then EXPIRE in a separate command`
	c.Do("EXPIRE", "m:"+user, 60)
	h, _ := redis.Int(c.Do("INCR", "h:"+user)) // want `INCR of "h:" \+ user, then EXPIRE in a separate command`
	c.Do("EXPIRE", "h:"+user, 3600)
	return m <= 10 && h <= 100
}

func twoWindowsHandler(c redis.Conn) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !twoWindows(c, r.RemoteAddr) {
			w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
		}
	}
}

// The time to live is not a constant.
func countFor(c redis.Conn, user string, ttl int) bool {
	n, _ := redis.Int(c.Do("INCR", user)) // want `INCR of user, then EXPIRE in a separate command`
	c.Do("EXPIRE", user, ttl)
	return n <= 10
}

func configured(c redis.Conn, ttl int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !countFor(c, r.RemoteAddr, ttl) {
			w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
		}
	}
}

// The status does not depend on the counter: it is written on another
// branch.
func unrelated(pool *redis.Pool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n, _ := count(pool, r.RemoteAddr)
		_ = n
		if r.Method != http.MethodGet {
			http.Error(w, "busy", http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
		}
	}
}

// The key with an expiry is a cache, not a counter.
func cached(ctx context.Context, rdb *goredis.Client, key string) bool {
	ok := rdb.SetNX(ctx, key, "1", 0).Val()
	rdb.Expire(ctx, key, time.Hour)
	return ok
}

func once(rdb *goredis.Client) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !cached(r.Context(), rdb, r.RemoteAddr) {
			w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
		}
	}
}

// The counter is in another package: its facts do not carry the time to
// live.
func otherPackage(c redis.Conn) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !counter.Allow(c, r.RemoteAddr) {
			w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
		}
	}
}

// A helper writes the status: the header would go inside it.
func viaHelper(c redis.Conn) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !countMs(c, r.RemoteAddr) {
			respond.TooMany(w) // want `429 Too Many Requests written by respond.TooMany`
		}
	}
}
