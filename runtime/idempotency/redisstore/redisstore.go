// Package redisstore keeps idempotency records in Redis, so that every
// instance of a service shares them: a retry that reaches another instance
// than the first attempt is still recognized.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
//	store, err := redisstore.New(redisstore.Config{Client: rdb})
//	...
//	mw, err := idempotency.New(idempotency.Config{Store: store, Scope: tenantOf})
//
// Each record is one Redis string with a time to live, under the key
// Prefix + "{" + scope + ":" + key + "}" (with '%', ':', '{' and '}'
// percent-encoded in the scope and the key, so that no two records share a
// key). The braces are a Redis Cluster hash tag. A claim is one atomic
// SET NX PX; every decision of the middleware — claim, complete, release,
// renew — is one round trip, a Lua script where it must compare before it
// writes.
//
// When Redis does not answer, every method returns an error and the
// middleware answers 503 without running the handler. How long a request
// waits for that answer is up to the client's settings: set
// ContextTimeoutEnabled so that idempotency.Config.StoreTimeout bounds each
// call (without it, go-redis waits out its own DialTimeout and ReadTimeout,
// 5s and 3s by default), and keep MaxRetries and DialerRetries low (their
// defaults, 3 resends and 5 dials 100ms apart, multiply the wait when Redis
// is down).
//
// A key under the prefix that holds something other than a string (a hash,
// say) makes every call for it fail, so requests with that key get 503;
// a string that is not a record is treated as absent by the middleware.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilint/resilint/runtime/idempotency"
	"github.com/resilint/resilint/runtime/internal/config"
)

// DefaultPrefix starts every Redis key when Config.Prefix is empty.
const DefaultPrefix = "idempotency:"

// ConfigError reports a configuration field with an invalid value: New
// returns it for an invalid configuration (use errors.As). Every runtime
// package defines its ConfigError alike.
type ConfigError struct {
	// Field names the field of Config, "Prefix" for example.
	Field string
	// Value is the offending value, nil where printing it would not help.
	Value any
	// Reason says what a valid value is.
	Reason string
	// Err, if not nil, is the underlying error.
	Err error
}

// Error reads like "redisstore: invalid Config.Client: required".
func (e *ConfigError) Error() string {
	return config.Text("redisstore", e.Field, e.Value, e.Reason, e.Err)
}

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }

// Config configures a [Store].
type Config struct {
	// Client is the connection to Redis: a *redis.Client, a
	// *redis.ClusterClient (records are hash-tagged, so each lives in one
	// slot), a *redis.Ring or a failover client. Required.
	Client redis.UniversalClient

	// Prefix starts every key the store writes, to keep its records apart
	// from other data in the same database. It must not contain '{' or '}',
	// which would upset the hash tag. Empty means DefaultPrefix,
	// "idempotency:".
	Prefix string
}

// Store is an [idempotency.Store] in Redis. Create one with [New]; the zero
// value is not usable. A Store is safe for concurrent use.
type Store struct {
	client  redis.UniversalClient
	prefix  string
	claim   *redis.Script
	replace *redis.Script
	release *redis.Script
}

var _ idempotency.Store = (*Store)(nil)

// claimScript claims KEYS[1] with ARGV[1] for ARGV[2] milliseconds if it is
// free and returns nil; otherwise it returns the record that holds it. A
// record equal to ARGV[1] is this very claim, resent by the client after a
// lost reply: it counts as claimed.
const claimScript = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
	return false
end
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then
	return false
end
return cur
`

// replaceScript sets KEYS[1] to ARGV[2] for ARGV[3] milliseconds if it
// holds ARGV[1] (or already holds ARGV[2]: a resent replace) and returns 1;
// otherwise 0.
const replaceScript = `
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] or cur == ARGV[2] then
	redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
	return 1
end
return 0
`

// releaseScript deletes KEYS[1] if it holds ARGV[1] and returns 1;
// otherwise 0.
const releaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
	redis.call('DEL', KEYS[1])
	return 1
end
return 0
`

// New returns a Store that keeps its records through cfg.Client, or a
// *ConfigError. It does not contact Redis.
func New(cfg Config) (*Store, error) {
	if cfg.Client == nil {
		return nil, &ConfigError{Field: "Client", Reason: "required"}
	}
	if strings.ContainsAny(cfg.Prefix, "{}") {
		return nil, &ConfigError{Field: "Prefix", Value: fmt.Sprintf("%q", cfg.Prefix), Reason: "must not contain '{' or '}'"}
	}
	s := &Store{
		client:  cfg.Client,
		prefix:  cfg.Prefix,
		claim:   redis.NewScript(claimScript),
		replace: redis.NewScript(replaceScript),
		release: redis.NewScript(releaseScript),
	}
	if s.prefix == "" {
		s.prefix = DefaultPrefix
	}
	return s, nil
}

// Key returns the Redis key that holds id's record, for operators and
// tests.
func (s *Store) Key(id idempotency.RecordID) string {
	var b strings.Builder
	b.Grow(len(s.prefix) + len(id.Scope) + len(id.Key) + 3)
	b.WriteString(s.prefix)
	b.WriteByte('{')
	escape(&b, id.Scope)
	b.WriteByte(':')
	escape(&b, id.Key)
	b.WriteByte('}')
	return b.String()
}

func escape(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '%', ':', '{', '}':
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(c), 16)))
		default:
			b.WriteByte(c)
		}
	}
}

// millis converts a TTL to whole milliseconds, rounding up, at least 1.
func millis(d time.Duration) int64 {
	return max(1, int64((d+time.Millisecond-1)/time.Millisecond))
}

// Claim implements [idempotency.Store.Claim] with one script call: SET NX
// PX, and GET if the key is taken.
func (s *Store) Claim(ctx context.Context, id idempotency.RecordID, value []byte, ttl time.Duration) ([]byte, bool, error) {
	v, err := s.claim.Run(ctx, s.client, []string{s.Key(id)}, value, millis(ttl)).Text()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, true, nil
	case err != nil:
		return nil, false, fmt.Errorf("redisstore: claim: %w", err)
	}
	return []byte(v), false, nil
}

// Replace implements [idempotency.Store.Replace] with one script call.
func (s *Store) Replace(ctx context.Context, id idempotency.RecordID, old, value []byte, ttl time.Duration) (bool, error) {
	n, err := s.replace.Run(ctx, s.client, []string{s.Key(id)}, old, value, millis(ttl)).Int()
	if err != nil {
		return false, fmt.Errorf("redisstore: replace: %w", err)
	}
	return n == 1, nil
}

// Release implements [idempotency.Store.Release] with one script call.
func (s *Store) Release(ctx context.Context, id idempotency.RecordID, old []byte) (bool, error) {
	n, err := s.release.Run(ctx, s.client, []string{s.Key(id)}, old).Int()
	if err != nil {
		return false, fmt.Errorf("redisstore: release: %w", err)
	}
	return n == 1, nil
}

// Get implements [idempotency.Store.Get] with one GET.
func (s *Store) Get(ctx context.Context, id idempotency.RecordID) ([]byte, bool, error) {
	v, err := s.client.Get(ctx, s.Key(id)).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("redisstore: get: %w", err)
	}
	return v, true, nil
}
