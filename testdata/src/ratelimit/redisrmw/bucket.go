package redisrmw

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A token bucket that takes a token off what it read and writes it back:
// tokens-- is still the reply's value.
func takeToken(ctx context.Context, rdb redis.UniversalClient, user string) (bool, error) {
	key := "bucket:" + user
	tokens, err := rdb.HGet(ctx, key, "tokens").Int64() // want `HGET of key, then HSET of it in a separate command \(not atomic\)`
	if err != nil {
		return false, err
	}
	if tokens <= 0 {
		return false, nil
	}
	tokens--
	return true, rdb.HSet(ctx, key, "tokens", tokens).Err()
}

// The same with tokens = tokens - cost.
func takeTokens(ctx context.Context, rdb redis.UniversalClient, user string, cost int64) (bool, error) {
	key := "bucket:" + user
	tokens, err := rdb.HGet(ctx, key, "tokens").Int64() // want `HGET of key, then HSET of it in a separate command \(not atomic\)`
	if err != nil {
		return false, err
	}
	if tokens < cost {
		return false, nil
	}
	tokens = tokens - 1
	return true, rdb.HSet(ctx, key, "tokens", tokens).Err()
}

// Near miss: the variable is given another value before the write (a
// refill to capacity decided elsewhere): the write does not carry the
// reply.
func refill(ctx context.Context, rdb redis.UniversalClient, user string, capacity int64) error {
	key := "bucket:" + user
	tokens, err := rdb.HGet(ctx, key, "tokens").Int64()
	if err != nil {
		return err
	}
	_ = tokens
	tokens = capacity
	return rdb.HSet(ctx, key, "tokens", tokens).Err()
}

// A cost charged from the caller and a refill capped with min still
// derive the written value from what was read.
func charge(ctx context.Context, rdb redis.UniversalClient, user string, cost, capacity int64) (bool, error) {
	key := "bucket:" + user
	tokens, err := rdb.HGet(ctx, key, "tokens").Int64() // want `HGET of key, then HSET of it in a separate command \(not atomic\)`
	if err != nil {
		return false, err
	}
	tokens = min(tokens+1, capacity)
	if tokens < cost {
		return false, nil
	}
	tokens -= cost
	return true, rdb.HSet(ctx, key, "tokens", tokens).Err()
}

// The reply added into another variable (total += n) is written back
// through it.
func addUp(ctx context.Context, rdb redis.UniversalClient, user string, base int64) error {
	key := "sum:" + user
	n, err := rdb.Get(ctx, key).Int64() // want `GET of key, then SET of it in a separate command \(not atomic\)`
	if err != nil {
		return err
	}
	total := base
	total += n
	return rdb.Set(ctx, key, total, 0).Err()
}
