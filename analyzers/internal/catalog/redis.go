package catalog

// Redis client knowledge: which calls issue which Redis command on which
// key, and which run commands inside a transaction, a pipeline or a Lua
// script. The model's rediscmd layer interprets these rows.

// RedisKind is what a Redis call does to its key.
type RedisKind int

const (
	// RedisRead reads the key's value (GET, HGET, ZCARD, TTL...).
	RedisRead RedisKind = iota + 1
	// RedisWrite writes the key (SET, HSET, ZADD, DEL...).
	RedisWrite
	// RedisIncr increments a counter atomically and returns it (INCR,
	// INCRBY, HINCRBY): a write whose result is the new value.
	RedisIncr
	// RedisExpire sets the key's time to live (EXPIRE, PEXPIRE...).
	RedisExpire
	// RedisScript runs a Lua script atomically on the keys at KeyArg (a
	// []string).
	RedisScript
	// RedisTx runs the callback at FnArg inside MULTI/EXEC (TxPipelined)
	// or with the keys watched (Watch).
	RedisTx
	// RedisPipeline runs the callback at FnArg in a pipeline: its
	// commands are queued and sent together, their replies are not known
	// until the pipeline runs.
	RedisPipeline
	// RedisDynamic runs the command named by the constant argument CmdArg
	// on the key at KeyArg (redigo's Conn.Do); with Queues, the command is
	// only queued (Conn.Send), its reply read later.
	RedisDynamic
	// RedisQueued: a type whose commands are queued in a pipeline or a
	// transaction, or run on a connection with watched keys (Recv empty,
	// Name the type).
	RedisQueued
)

// RedisRow is one catalogued Redis client API.
type RedisRow struct {
	Path string // import path
	Recv string // receiver type name ("" for RedisQueued rows)
	Name string // method name, or the type name of a RedisQueued row
	Kind RedisKind
	Cmd  string // the Redis command, for messages: "GET"
	// KeyArg is the index of the key argument (the []string of keys for a
	// script); -1 when the call has none.
	KeyArg int
	// Keys: the arguments from KeyArg on are keys (DEL k1 k2...).
	Keys bool
	// FnArg is the callback argument of RedisTx and RedisPipeline rows.
	FnArg int
	// Count: a read that returns how many elements the key holds (ZCARD,
	// LLEN...), or a write that adds one (ZADD, RPUSH...): the two halves
	// of a limit kept as a log.
	Count bool
	// CmdArg is the command name argument of a RedisDynamic row; Queues
	// says the command is queued, not run.
	CmdArg int
	Queues bool
}

// Redis client import paths.
const (
	GoRedisV9 = "github.com/redis/go-redis/v9"
	Redigo    = "github.com/gomodule/redigo/redis"
)

// go-redis defines every command once, as a method of the unexported
// func type cmdable that Client, ClusterClient, Ring, Tx and Pipeline
// embed; the exported interface Cmdable (embedded in UniversalClient,
// StatefulCmdable and Pipeliner) lists them again. A call resolves to one
// or the other, so each command has a row for both.
var goRedisCommands = []struct {
	name, cmd string
	kind      RedisKind
	keyArg    int
	keys      bool
	count     bool
}{
	{"Get", "GET", RedisRead, 1, false, false},
	{"MGet", "MGET", RedisRead, 1, true, false},
	{"Exists", "EXISTS", RedisRead, 1, true, false},
	{"TTL", "TTL", RedisRead, 1, false, false},
	{"PTTL", "PTTL", RedisRead, 1, false, false},
	{"HGet", "HGET", RedisRead, 1, false, false},
	{"HGetAll", "HGETALL", RedisRead, 1, false, false},
	{"HMGet", "HMGET", RedisRead, 1, false, false},
	{"HLen", "HLEN", RedisRead, 1, false, true},
	{"LLen", "LLEN", RedisRead, 1, false, true},
	{"LRange", "LRANGE", RedisRead, 1, false, false},
	{"SCard", "SCARD", RedisRead, 1, false, true},
	{"ZCard", "ZCARD", RedisRead, 1, false, true},
	{"ZCount", "ZCOUNT", RedisRead, 1, false, true},
	{"ZRange", "ZRANGE", RedisRead, 1, false, false},
	{"ZRangeByScore", "ZRANGEBYSCORE", RedisRead, 1, false, false},
	{"Set", "SET", RedisWrite, 1, false, false},
	{"SetEx", "SETEX", RedisWrite, 1, false, false},
	{"SetNX", "SETNX", RedisWrite, 1, false, false},
	{"GetSet", "GETSET", RedisWrite, 1, false, false},
	{"Del", "DEL", RedisWrite, 1, true, false},
	{"HSet", "HSET", RedisWrite, 1, false, true},
	{"LPush", "LPUSH", RedisWrite, 1, false, true},
	{"RPush", "RPUSH", RedisWrite, 1, false, true},
	{"SAdd", "SADD", RedisWrite, 1, false, true},
	{"ZAdd", "ZADD", RedisWrite, 1, false, true},
	{"ZRemRangeByScore", "ZREMRANGEBYSCORE", RedisWrite, 1, false, false},
	{"Incr", "INCR", RedisIncr, 1, false, false},
	{"IncrBy", "INCRBY", RedisIncr, 1, false, false},
	{"IncrByFloat", "INCRBYFLOAT", RedisIncr, 1, false, false},
	{"Decr", "DECR", RedisIncr, 1, false, false},
	{"DecrBy", "DECRBY", RedisIncr, 1, false, false},
	{"HIncrBy", "HINCRBY", RedisIncr, 1, false, false},
	{"HIncrByFloat", "HINCRBYFLOAT", RedisIncr, 1, false, false},
	{"Expire", "EXPIRE", RedisExpire, 1, false, false},
	{"ExpireNX", "EXPIRE NX", RedisExpire, 1, false, false},
	{"ExpireAt", "EXPIREAT", RedisExpire, 1, false, false},
	{"PExpire", "PEXPIRE", RedisExpire, 1, false, false},
	{"Eval", "EVAL", RedisScript, 2, false, false},
	{"EvalSha", "EVALSHA", RedisScript, 2, false, false},
	{"EvalRO", "EVAL_RO", RedisScript, 2, false, false},
	{"EvalShaRO", "EVALSHA_RO", RedisScript, 2, false, false},
}

// RedisRows is the Redis part of the catalog.
var RedisRows = func() []RedisRow {
	var rows []RedisRow
	for _, c := range goRedisCommands {
		for _, recv := range []string{"cmdable", "Cmdable"} {
			rows = append(rows, RedisRow{Path: GoRedisV9, Recv: recv, Name: c.name, Kind: c.kind, Cmd: c.cmd, KeyArg: c.keyArg, Keys: c.keys, Count: c.count})
		}
		if c.kind == RedisScript {
			rows = append(rows, RedisRow{Path: GoRedisV9, Recv: "Scripter", Name: c.name, Kind: c.kind, Cmd: c.cmd, KeyArg: c.keyArg})
		}
	}
	// Script.Run(ctx, c, keys, args...) and friends: EVALSHA, then EVAL
	// on NOSCRIPT; all atomic.
	for _, m := range []struct{ name, cmd string }{{"Run", "EVALSHA"}, {"RunRO", "EVALSHA_RO"}, {"Eval", "EVAL"}, {"EvalRO", "EVAL_RO"}, {"EvalSha", "EVALSHA"}, {"EvalShaRO", "EVALSHA_RO"}} {
		rows = append(rows, RedisRow{Path: GoRedisV9, Recv: "Script", Name: m.name, Kind: RedisScript, Cmd: m.cmd, KeyArg: 2})
	}
	for _, recv := range []string{"Client", "ClusterClient", "Ring", "Tx", "Pipeline", "Cmdable"} {
		rows = append(rows,
			RedisRow{Path: GoRedisV9, Recv: recv, Name: "TxPipelined", Kind: RedisTx, Cmd: "MULTI/EXEC", KeyArg: -1, FnArg: 1},
			RedisRow{Path: GoRedisV9, Recv: recv, Name: "Pipelined", Kind: RedisPipeline, Cmd: "pipeline", KeyArg: -1, FnArg: 1})
	}
	for _, recv := range []string{"Client", "ClusterClient", "UniversalClient"} {
		rows = append(rows, RedisRow{Path: GoRedisV9, Recv: recv, Name: "Watch", Kind: RedisTx, Cmd: "WATCH", KeyArg: 2, Keys: true, FnArg: 1})
	}
	for _, t := range []string{"Tx", "Pipeline", "Pipeliner"} {
		rows = append(rows, RedisRow{Path: GoRedisV9, Name: t, Kind: RedisQueued, KeyArg: -1})
	}
	// redigo: conn.Do("GET", key), conn.Send("INCR", key) (queued until
	// Flush or the next Do). Commands sent between MULTI and EXEC run in
	// the transaction.
	rows = append(rows,
		RedisRow{Path: Redigo, Recv: "Conn", Name: "Do", Kind: RedisDynamic, CmdArg: 0, KeyArg: 1},
		RedisRow{Path: Redigo, Recv: "Conn", Name: "Send", Kind: RedisDynamic, CmdArg: 0, KeyArg: 1, Queues: true})
	return rows
}()

type redisKey struct{ path, recv, name string }

var redisIndex = func() map[redisKey]*RedisRow {
	m := make(map[redisKey]*RedisRow, len(RedisRows))
	for i := range RedisRows {
		r := &RedisRows[i]
		m[redisKey{r.Path, r.Recv, r.Name}] = r
	}
	return m
}()

// LookupRedis returns the Redis row for the method recv.name of path (or,
// with recv "", the RedisQueued type name), or nil.
func LookupRedis(path, recv, name string) *RedisRow {
	return redisIndex[redisKey{path, recv, name}]
}

// RedisPaths are the import paths of the Redis rows.
func RedisPaths() []string { return []string{GoRedisV9, Redigo} }

type commandInfo struct {
	kind        RedisKind
	count, keys bool
}

var commandByName = func() map[string]commandInfo {
	m := map[string]commandInfo{}
	for _, c := range goRedisCommands {
		if c.kind != RedisScript {
			m[c.cmd] = commandInfo{c.kind, c.count, c.keys}
		}
	}
	return m
}()

// RedisCommand returns what the Redis command name (upper case, as
// redigo's Do takes it) does, as the go-redis rows say: its kind, its
// Count, and whether every argument from the first is a key. ok is false
// for commands the catalog does not know (scripts included).
func RedisCommand(name string) (kind RedisKind, count, keys, ok bool) {
	c, ok := commandByName[name]
	return c.kind, c.count, c.keys, ok
}
