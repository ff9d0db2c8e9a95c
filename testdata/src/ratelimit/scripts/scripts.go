package scripts

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

const slidingWindow = `
local cur = tonumber(redis.call("GET", KEYS[1]) or "0")
local prev = tonumber(redis.call("GET", KEYS[2]) or "0")
return {cur, prev}`

var sliding = redis.NewScript(slidingWindow)

// Keys built with fmt, no hash tag: two slots in a cluster.
func crossFmt(ctx context.Context, rdb *redis.ClusterClient, user string, window int64) {
	cur := fmt.Sprintf("rl:%s:%d", user, window)
	prev := fmt.Sprintf("rl:%s:%d", user, window-1)
	sliding.Run(ctx, rdb, []string{cur, prev}, 60) // want `EVALSHA script gets keys that do not share a hash tag \("rl:<user>:<window>", "rl:<user>:<window - 1>"\): Redis Cluster refuses it with CROSSSLOT`
}

// Concatenations without a tag.
func crossConcat(ctx context.Context, rdb redis.UniversalClient, user string) {
	rdb.Eval(ctx, slidingWindow, []string{"rl:" + user + ":cur", "rl:" + user + ":prev"}) // want `EVAL script gets keys that do not share a hash tag \("rl:<user>:cur", "rl:<user>:prev"\)`
}

// Tags that differ.
func crossTags(ctx context.Context, rdb *redis.Client, user, other string) {
	keys := []string{"{" + user + "}:cur", "{" + other + "}:cur"}
	rdb.EvalSha(ctx, "sha", keys) // want `EVALSHA script gets keys that do not share a hash tag \("\{<user>\}:cur", "\{<other>\}:cur"\)`
}

// Constant keys, one tagged, one not.
func crossConst(ctx context.Context, rdb *redis.Client) {
	rdb.Eval(ctx, slidingWindow, []string{"{limits}:a", "limits:b"}) // want `EVAL script gets keys that do not share a hash tag`
}

// --- near misses ---

// The keys share the tag {user}.
func okTagged(ctx context.Context, rdb *redis.ClusterClient, user string, window int64) {
	cur := fmt.Sprintf("rl:{%s}:%d", user, window)
	prev := fmt.Sprintf("rl:{%s}:%d", user, window-1)
	sliding.Run(ctx, rdb, []string{cur, prev}, 60)
}

// Tags built by concatenation and by fmt, the same identity.
func okTaggedMixed(ctx context.Context, rdb *redis.Client, user string) {
	rdb.Eval(ctx, slidingWindow, []string{"rl:{" + user + "}:cur", fmt.Sprintf("rl:{%s}:prev", user)})
}

// Constant tag shared.
func okConstTag(ctx context.Context, rdb *redis.Client) {
	rdb.Eval(ctx, slidingWindow, []string{"{global}:cur", "{global}:prev"})
}

// A single key.
func okSingle(ctx context.Context, rdb *redis.Client, user string) {
	sliding.Run(ctx, rdb, []string{"rl:" + user}, 60)
}

// Keys the check cannot see: parameters, a value from a function.
func okUnknown(ctx context.Context, rdb *redis.Client, a, b string, keys []string) {
	rdb.Eval(ctx, slidingWindow, []string{a, b})
	rdb.Eval(ctx, slidingWindow, keys)
	rdb.Eval(ctx, slidingWindow, []string{fmt.Sprintf("%s:cur", a), fmt.Sprintf("%s:prev", a)})
	rdb.Eval(ctx, slidingWindow, []string{"x:" + a, b})
}

// An empty tag "{}" does not count: the whole key is hashed; the same key
// twice is one slot.
func okSameKey(ctx context.Context, rdb *redis.Client, user string) {
	rdb.Eval(ctx, slidingWindow, []string{"rl:" + user, "rl:" + user})
}
