// Package limiter limits each user of the shop to 60 requests a minute,
// counting in Redis so that every instance shares the count.
package limiter

import (
	"context"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

// perMinute is the limit per user.
const perMinute = 60

// Limiter is HTTP middleware that refuses users over the limit.
type Limiter struct {
	Redis *redis.Client
}

// Wrap limits next.
func (l *Limiter) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok, err := l.allow(r.Context(), r.Header.Get("X-User"))
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
func (l *Limiter) allow(ctx context.Context, user string) (bool, error) {
	key := "rl:" + user + ":" + time.Now().Format("200601021504")
	n, err := l.Redis.Get(ctx, key).Int64()
	if err != nil && err != redis.Nil {
		return false, err
	}
	if n >= perMinute {
		return false, nil
	}
	if err := l.Redis.Incr(ctx, key).Err(); err != nil {
		return false, err
	}
	return true, l.Redis.Expire(ctx, key, time.Minute).Err()
}
