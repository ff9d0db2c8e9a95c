// Package rediscmd: the CmdsFact of Redis helpers; their
// facts say which commands they issue on which parameter.
package rediscmd

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Count reads the counter key.
func Count(ctx context.Context, c redis.Cmdable, key string) (int64, error) { // want Count:`redis\(GET \$2\)`
	return c.Get(ctx, key).Int64()
}

// Bump increments key.
func Bump(ctx context.Context, c redis.Cmdable, key string) error { // want Bump:`redis\(INCR \$2\)`
	return c.Incr(ctx, key).Err()
}

// Touch sets the expiry of key.
func Touch(ctx context.Context, c redis.Cmdable, key string, ttl time.Duration) error { // want Touch:`redis\(EXPIRE \$2\)`
	return c.Expire(ctx, key, ttl).Err()
}

// Atomic increments key and sets its expiry in one transaction: no fact.
func Atomic(ctx context.Context, c redis.Cmdable, key string, ttl time.Duration) error {
	_, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, key)
		p.Expire(ctx, key, ttl)
		return nil
	})
	return err
}

// Global reads a constant key.
func Global(ctx context.Context, c *redis.Client) int64 { // want Global:`redis\(GET "global"\)`
	n, _ := c.Get(ctx, "global").Int64()
	return n
}
