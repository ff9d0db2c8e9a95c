package redisrmw

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// EXPIRE NX on every request: a TTL lost between INCR and EXPIRE is set
// by the next request, so the counter cannot stay for ever.
func hitNX(ctx context.Context, rdb *redis.Client, key string) (int64, error) {
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return 0, err
	}
	rdb.ExpireNX(ctx, key, time.Minute)
	return n, nil
}

// The near miss: EXPIRE NX only on the first hit. Lost there, no later
// request sets it.
func hitFirstNX(ctx context.Context, rdb *redis.Client, key string) (int64, error) {
	n, err := rdb.Incr(ctx, key).Result() // want `INCR of key, then EXPIRE NX in a separate command`
	if err != nil {
		return 0, err
	}
	if n == 1 {
		rdb.ExpireNX(ctx, key, time.Minute)
	}
	return n, nil
}

// A value read and handed back, then a counter bumped whatever it was:
// the increment does not depend on the read.
func visit(ctx context.Context, rdb *redis.Client, user string) (string, error) {
	key := "user:" + user
	name, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return "", err
	}
	rdb.Incr(ctx, key)
	return name, nil
}
