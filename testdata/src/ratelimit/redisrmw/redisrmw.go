package redisrmw

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"ratelimit/rediskeys"
)

var errLimited = errors.New("limited")

// A fixed window checked with GET, then counted with INCR: two concurrent
// requests read the same count and both pass.
func allowGetIncr(ctx context.Context, rdb *redis.Client, user string) error {
	key := "rl:" + user
	n, err := rdb.Get(ctx, key).Int64() // want `GET of key, then INCR of it in a separate command \(not atomic\)`
	if err != nil && err != redis.Nil {
		return err
	}
	if n >= 60 {
		return errLimited
	}
	rdb.Incr(ctx, key)
	return nil
}

// The sliding log: ZCARD then ZADD.
func allowLog(ctx context.Context, rdb redis.UniversalClient, user string, now time.Time) bool {
	key := fmt.Sprintf("log:%s", user)
	rdb.ZRemRangeByScore(ctx, key, "0", strconv.FormatInt(now.Add(-time.Minute).UnixNano(), 10))
	if rdb.ZCard(ctx, key).Val() >= 60 { // want `ZCARD of key, then ZADD of it`
		return false
	}
	rdb.ZAdd(ctx, key, redis.Z{Score: float64(now.UnixNano()), Member: now.UnixNano()})
	return true
}

// The same key expression, rebuilt for each command, is the same key.
func allowHash(ctx context.Context, rdb *redis.Client, user string) {
	v, _ := rdb.HGet(ctx, "rl:"+user, "count").Int() // want `HGET of "rl:" \+ user, then HSET of it`
	rdb.HSet(ctx, "rl:"+user, "count", v+1)
}

// INCR then EXPIRE as two commands.
func allowIncrExpire(ctx context.Context, rdb *redis.Client, user string) (bool, error) {
	key := "win:" + user
	n, err := rdb.Incr(ctx, key).Result() // want `INCR of key, then EXPIRE in a separate command: a crash or a lost connection between them leaves a counter that never expires`
	if err != nil {
		return false, err
	}
	if n == 1 {
		rdb.Expire(ctx, key, time.Minute)
	}
	return n <= 60, nil
}

// Through helpers of another package, known by their facts.
func allowHelpers(ctx context.Context, rdb *redis.Client, user string) bool {
	key := "h:" + user
	n, _ := rediskeys.Count(ctx, rdb, key) // want `GET \(in rediskeys.Count, at rediskeys.go:\d+\) of key, then INCR \(in rediskeys.Bump, at rediskeys.go:\d+\) of it`
	if n >= 60 {
		return false
	}
	_ = rediskeys.Bump(ctx, rdb, key)
	return true
}

func allowHelpersExpire(ctx context.Context, rdb *redis.Client, user string) {
	key := "e:" + user
	_ = rediskeys.Bump(ctx, rdb, key) // want `INCR \(in rediskeys.Bump, at rediskeys.go:\d+\) of key, then EXPIRE \(in rediskeys.Touch`
	_ = rediskeys.Touch(ctx, rdb, key, time.Minute)
}

// A helper of this package with a constant key: the caller writes it.
func resetGlobal(ctx context.Context, rdb *redis.Client) {
	n := rediskeys.Global(ctx, rdb) // want `GET \(in rediskeys.Global, at rediskeys.go:\d+\) of "global", then SET of it`
	if n < 100 {
		rdb.Set(ctx, "global", n*2, 0)
	}
}

// --- near misses ---

// Inside TxPipelined: INCR and EXPIRE in one MULTI/EXEC.
func okTx(ctx context.Context, rdb *redis.Client, user string) error {
	key := "tx:" + user
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, key)
		p.Expire(ctx, key, time.Minute)
		return nil
	})
	return err
}

// A transaction pipeline made by hand.
func okTxPipeline(ctx context.Context, rdb *redis.Client, user string) error {
	key := "txp:" + user
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, key)
	pipe.Expire(ctx, key, time.Minute)
	_, err := pipe.Exec(ctx)
	return err
}

// Optimistic locking: read under WATCH, write in the transaction.
func okWatch(ctx context.Context, rdb *redis.Client, user string) error {
	key := "w:" + user
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, key).Int()
		if err != nil && err != redis.Nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, key, n+1, time.Minute)
			return nil
		})
		return err
	}, key)
}

// Different keys.
func okDifferentKeys(ctx context.Context, rdb *redis.Client, user string) {
	n, _ := rdb.Get(ctx, "limit:"+user).Int64()
	rdb.Incr(ctx, "count:"+user)
	rdb.Expire(ctx, "other:"+user, time.Duration(n))
}

// A Lua script does the read-modify-write atomically.
var incrScript = redis.NewScript(`
local n = redis.call("INCR", KEYS[1])
if n == 1 then redis.call("EXPIRE", KEYS[1], ARGV[1]) end
return n`)

func okScript(ctx context.Context, rdb *redis.Client, user string) (int64, error) {
	return incrScript.Run(ctx, rdb, []string{"s:" + user}, 60).Int64()
}

// SET with an expiry is one command; a write then a read is not a
// read-modify-write.
func okSetThenGet(ctx context.Context, rdb *redis.Client, user string) string {
	rdb.Set(ctx, "v:"+user, "x", time.Minute)
	return rdb.Get(ctx, "v:"+user).Val()
}

// A helper that is atomic by itself.
func okAtomicHelper(ctx context.Context, rdb *redis.Client, user string) error {
	return rediskeys.Atomic(ctx, rdb, "a:"+user, time.Minute)
}

// Reading the TTL and then setting it is not reported (EXPIRE is not a
// value write).
func okTTL(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.TTL(ctx, key).Val() < 0 {
		rdb.Expire(ctx, key, time.Minute)
	}
}

// A cache filled on a miss: the value written does not come from the
// read.
func okCacheAside(ctx context.Context, rdb *redis.Client, id string, load func() string) string {
	v, err := rdb.Get(ctx, "cache:"+id).Result()
	if err == redis.Nil {
		v = load()
		rdb.Set(ctx, "cache:"+id, v, time.Hour)
	}
	return v
}

// Read, then clean up.
func okGetDel(ctx context.Context, rdb *redis.Client, key string) string {
	v := rdb.Get(ctx, key).Val()
	rdb.Del(ctx, key)
	return v
}

// The value read is checked, then an unrelated value is written.
func okGuardedReset(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.Get(ctx, key).Val() == "" {
		rdb.Set(ctx, key, "init", 0)
	}
}

// A plain pipeline: replies come back together, nothing is decided
// between the commands.
func okPipelined(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, key)
		p.Expire(ctx, key, time.Minute)
		return nil
	})
}

// The count read as text and parsed, then written back with SET.
func allowParsed(ctx context.Context, rdb *redis.Client, user string) bool {
	key := "rl:" + user
	v, _ := rdb.Get(ctx, key).Result() // want `GET of key, then SET of it in a separate command \(not atomic\)`
	n, _ := strconv.Atoi(v)
	if n >= 60 {
		return false
	}
	rdb.Set(ctx, key, n+1, time.Minute)
	return true
}

// The near miss: the number parsed is the caller's, not the reply.
func storeParsed(ctx context.Context, rdb *redis.Client, user, limit string) {
	key := "limit:" + user
	if v, _ := rdb.Get(ctx, key).Result(); v != "" {
		return
	}
	n, _ := strconv.Atoi(limit)
	rdb.Set(ctx, key, n, time.Hour)
}

// A missing key read as a zero count is still the reply's count.
func allowDefaulted(ctx context.Context, rdb *redis.Client, user string) bool {
	key := "rl:" + user
	n, err := rdb.Get(ctx, key).Int64() // want `GET of key, then SET of it in a separate command \(not atomic\)`
	if err == redis.Nil {
		n = 0
	}
	if n >= 60 {
		return false
	}
	rdb.Set(ctx, key, n+1, time.Minute)
	return true
}

func loadLimit(user string) int64 { return 60 }

// The near miss: a miss is filled with a value loaded elsewhere, and that
// value is what is written.
func cachedLimit(ctx context.Context, rdb *redis.Client, user string) int64 {
	key := "limit:" + user
	n, err := rdb.Get(ctx, key).Int64()
	if err == redis.Nil {
		n = loadLimit(user)
		rdb.Set(ctx, key, n, time.Hour)
	}
	return n
}
