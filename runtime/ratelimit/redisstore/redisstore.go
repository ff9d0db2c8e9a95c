// Package redisstore keeps the counts of a [ratelimit.Limiter] in Redis, so
// that every instance of a service shares them and a key's limit holds
// across instances.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379", ContextTimeoutEnabled: true})
//	store, err := redisstore.New(redisstore.Config{Client: rdb})
//	...
//	l, err := ratelimit.New(ratelimit.Config{Limit: 60, Window: time.Minute, Store: store})
//
// # One round trip, atomically
//
// Each decision is one Lua script, run with EVALSHA (go-redis loads it with
// EVAL once, and again whenever Redis answers NOSCRIPT, after a restart or a
// SCRIPT FLUSH). The script reads the counts of both windows, decides,
// increments the current window's count and sets its expiry, all in one
// atomic step: two requests can never both read the same count and both
// pass, which a GET followed by an INCR in separate commands allows.
//
// # Keys
//
// A key's count for one window is a Redis string under
//
//	Prefix + "{" + key + "}:" + window number
//
// (with '%', '{' and '}' percent-encoded in the key). The braces are a
// Redis Cluster hash tag: both windows of a key hash to one slot, so the
// script, which touches both, runs on a cluster. A window's count expires
// two windows after it was created, when it no longer counts even as the
// previous window.
//
// # Time
//
// Windows are numbered from the time the Limiter passes, that is the
// clocks of the instances, aligned on the Unix epoch: keep them in sync
// (NTP). A skew of s shifts an instance's window boundaries by s, an error
// of at most s/window of a window's count around a boundary.
//
// # When Redis does not answer
//
// The Limiter waits at most its StoreTimeout and then fails open to a
// local limit, or closed, as configured. Set ContextTimeoutEnabled on the
// client so that the timeout also ends the call inside go-redis, and keep
// MaxRetries low: resends after the timeout only load a Redis that is
// already struggling.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilint/resilint/runtime/ratelimit"
)

// DefaultPrefix starts every Redis key when Config.Prefix is empty.
const DefaultPrefix = "ratelimit:"

// ErrInvalidConfig is wrapped by every error New returns.
var ErrInvalidConfig = errors.New("redisstore: invalid config")

// Config configures a [Store].
type Config struct {
	// Client is the connection to Redis: a *redis.Client, a
	// *redis.ClusterClient (both keys of a decision share a hash tag), a
	// *redis.Ring or a failover client. Required.
	Client redis.UniversalClient

	// Prefix starts every key, to keep the counts apart from other data
	// (and one limiter's from another's: give each its own). It must not
	// contain '{' or '}'. Empty means DefaultPrefix, "ratelimit:".
	Prefix string
}

// Store is a [ratelimit.Store] in Redis. Create one with [New]; the zero
// value is not usable. A Store is safe for concurrent use.
type Store struct {
	client redis.UniversalClient
	prefix string
	script *redis.Script
}

var _ ratelimit.Store = (*Store)(nil)

// script decides for ARGV[2] requests at ARGV[3] µs into the window of
// KEYS[1] (the previous window's count is in KEYS[2]), under a limit of
// ARGV[1] per window of ARGV[4] µs, with the rule of ratelimit.Store. If they
// fit, it adds them to KEYS[1], which expires ARGV[5] ms after its
// creation. It returns {admitted (1 or 0), previous count, current count}.
// Lua numbers are doubles, as in the Go rule: the same decisions.
const script = `
local limit = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
local elapsed = tonumber(ARGV[3])
local window = tonumber(ARGV[4])
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local prev = tonumber(redis.call('GET', KEYS[2]) or '0')
if prev * (window - elapsed) + (cur + n) * window <= limit * window then
	if n > 0 then
		cur = redis.call('INCRBY', KEYS[1], n)
		if cur == n then
			redis.call('PEXPIRE', KEYS[1], ARGV[5])
		end
	end
	return {1, prev, cur}
end
return {0, prev, cur}
`

// New returns a Store that keeps its counts through cfg.Client, or an
// error wrapping ErrInvalidConfig. It does not contact Redis.
func New(cfg Config) (*Store, error) {
	if cfg.Client == nil {
		return nil, fmt.Errorf("%w: Client is nil", ErrInvalidConfig)
	}
	if strings.ContainsAny(cfg.Prefix, "{}") {
		return nil, fmt.Errorf("%w: Prefix %q contains '{' or '}'", ErrInvalidConfig, cfg.Prefix)
	}
	s := &Store{client: cfg.Client, prefix: cfg.Prefix, script: redis.NewScript(script)}
	if s.prefix == "" {
		s.prefix = DefaultPrefix
	}
	return s, nil
}

// Key returns the Redis key of key's count in window number window, for
// operators and tests.
func (s *Store) Key(key string, window int64) string {
	var b strings.Builder
	b.Grow(len(s.prefix) + len(key) + 24)
	b.WriteString(s.prefix)
	b.WriteByte('{')
	for i := 0; i < len(key); i++ {
		switch c := key[i]; c {
		case '%', '{', '}':
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(c), 16)))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("}:")
	b.WriteString(strconv.FormatInt(window, 10))
	return b.String()
}

// Window returns the number of the window that t falls in and the
// microseconds elapsed in it, as the Store and the Limiter count them.
func Window(t time.Time, window time.Duration) (number, elapsed int64) {
	us, w := t.UnixMicro(), window.Microseconds()
	number, elapsed = us/w, us%w
	if elapsed < 0 {
		number--
		elapsed += w
	}
	return number, elapsed
}

// Add implements [ratelimit.Store.Add] with one script call.
func (s *Store) Add(ctx context.Context, key string, now time.Time, window time.Duration, limit, n int) (ratelimit.Counts, error) {
	w := window.Microseconds()
	if w <= 0 {
		return ratelimit.Counts{}, fmt.Errorf("redisstore: window %v is under a microsecond", window)
	}
	idx, elapsed := Window(now, window)
	ttl := (2*w + 999) / 1000
	keys := []string{s.Key(key, idx), s.Key(key, idx-1)}
	res, err := s.script.Run(ctx, s.client, keys, limit, n, elapsed, w, ttl).Int64Slice()
	if err != nil {
		return ratelimit.Counts{}, fmt.Errorf("redisstore: %w", err)
	}
	if len(res) != 3 {
		return ratelimit.Counts{}, fmt.Errorf("redisstore: script answered %d values, want 3", len(res))
	}
	return ratelimit.Counts{Allowed: res[0] == 1, Previous: res[1], Current: res[2]}, nil
}
