// Package rediskeys holds Redis helpers used by another package: their
// facts say which commands they issue on which parameter.
package rediskeys

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Count reads the counter key.
func Count(ctx context.Context, c redis.Cmdable, key string) (int64, error) {
	return c.Get(ctx, key).Int64()
}

// Bump increments key.
func Bump(ctx context.Context, c redis.Cmdable, key string) error {
	return c.Incr(ctx, key).Err()
}

// Touch sets the expiry of key.
func Touch(ctx context.Context, c redis.Cmdable, key string, ttl time.Duration) error {
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
func Global(ctx context.Context, c *redis.Client) int64 {
	n, _ := c.Get(ctx, "global").Int64()
	return n
}
