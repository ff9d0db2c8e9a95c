package redisstore_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/idempotency"
	"github.com/resilint/resilint/runtime/idempotency/redisstore"
	"github.com/resilint/resilint/runtime/idempotency/storetest"
)

func TestNew(t *testing.T) {
	_, err := redisstore.New(redisstore.Config{})
	var ce *redisstore.ConfigError
	assert.True(t, errors.As(err, &ce))
	assert.EqualError(t, err, "redisstore: invalid Config.Client: required")

	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	_, err = redisstore.New(redisstore.Config{Client: rdb, Prefix: "app:{x}:"})
	assert.EqualError(t, err, `redisstore: invalid Config.Prefix "app:{x}:": must not contain '{' or '}'`)
}

func TestKey(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	s, err := redisstore.New(redisstore.Config{Client: rdb})
	require.NoError(t, err)
	for id, want := range map[idempotency.RecordID]string{
		{Scope: "acme", Key: "01J9Z"}:     "idempotency:{acme:01J9Z}",
		{Scope: "", Key: "k"}:             "idempotency:{:k}",
		{Scope: "a:b", Key: "c"}:          "idempotency:{a%3Ab:c}",
		{Scope: "a", Key: "b:c"}:          "idempotency:{a:b%3Ac}",
		{Scope: "{a}", Key: "}b{%"}:       "idempotency:{%7Ba%7D:%7Db%7B%25}",
		{Scope: "a%3Ab", Key: "c"}:        "idempotency:{a%253Ab:c}",
		{Scope: "t", Key: `"quoted key"`}: `idempotency:{t:"quoted key"}`,
	} {
		got := s.Key(id)
		assert.Equal(t, want, got, "%+v", id)
		// The hash tag is everything between the one '{' and the one '}'.
		assert.Equal(t, 1, strings.Count(got, "{"), got)
		assert.Equal(t, 1, strings.Count(got, "}"), got)
		assert.True(t, strings.HasSuffix(got, "}"), got)
	}
	p, _ := redisstore.New(redisstore.Config{Client: rdb, Prefix: "shop:idem:"})
	assert.Equal(t, "shop:idem:{acme:k}", p.Key(idempotency.RecordID{Scope: "acme", Key: "k"}))
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) idempotency.Store { return newBackend(t).store })
}

// TestExactlyOnce is the proof, over both stores: one execution per key,
// and identical replays, however the duplicates come.
func TestExactlyOnce(t *testing.T) {
	t.Run("Memory", func(t *testing.T) {
		s, err := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
		require.NoError(t, err)
		storetest.RunExactlyOnce(t, s)
	})
	t.Run("Redis", func(t *testing.T) {
		storetest.RunExactlyOnce(t, newBackend(t).store)
	})
}

// TestOutage: Redis goes away mid-test, while a handler runs: 503s that
// say why, never a second execution.
func TestOutage(t *testing.T) {
	b := newBackend(t)
	storetest.RunOutage(t, b.store, b.stop)
}

func TestStoreErrors(t *testing.T) {
	b := newBackend(t)
	b.stop()
	ctx := context.Background()
	id := idempotency.RecordID{Key: "k"}
	_, _, err := b.store.Claim(ctx, id, []byte("v"), time.Minute)
	assert.ErrorContains(t, err, "redisstore: claim: ")
	_, err = b.store.Replace(ctx, id, []byte("v"), []byte("w"), time.Minute)
	assert.ErrorContains(t, err, "redisstore: replace: ")
	_, err = b.store.Release(ctx, id, []byte("v"))
	assert.ErrorContains(t, err, "redisstore: release: ")
	_, _, err = b.store.Get(ctx, id)
	assert.ErrorContains(t, err, "redisstore: get: ")
}

func TestTTL(t *testing.T) {
	b := newBackend(t)
	ctx := context.Background()
	id := idempotency.RecordID{Scope: "s", Key: "k"}
	key := b.store.Key(id)

	// A TTL is rounded up to whole milliseconds. miniredis's clock stands
	// still, so its PTTL is exact; a real server's moves on while the test
	// runs (on a loaded machine, by seconds), so only a bound is checked.
	ttl := 1500 * time.Microsecond
	if b.mini == nil {
		ttl += time.Hour
	}
	_, claimed, err := b.store.Claim(ctx, id, []byte("claim"), ttl)
	require.NoError(t, err)
	require.True(t, claimed)
	pttl, err := b.rdb.PTTL(ctx, key).Result()
	require.NoError(t, err)
	if b.mini != nil {
		assert.Equal(t, 2*time.Millisecond, pttl, "a TTL is rounded up to whole milliseconds")
	} else {
		assert.True(t, pttl > time.Hour-time.Minute && pttl <= time.Hour+2*time.Millisecond, "PTTL %v for a TTL of %v", pttl, ttl)
	}

	_, err = b.store.Replace(ctx, id, []byte("claim"), []byte("done"), time.Hour)
	require.NoError(t, err)
	pttl, _ = b.rdb.PTTL(ctx, key).Result()
	assert.True(t, pttl > 59*time.Minute && pttl <= time.Hour, "Replace sets the new TTL: %v", pttl)
	if b.mini != nil {
		assert.Equal(t, time.Hour, pttl)
	}

	if b.mini == nil {
		t.Log("expiry itself is checked against miniredis only (a real server's clock cannot be advanced)")
		return
	}
	b.mini.FastForward(time.Hour - time.Millisecond)
	_, ok, _ := b.store.Get(ctx, id)
	assert.True(t, ok)
	b.mini.FastForward(time.Millisecond)
	_, ok, _ = b.store.Get(ctx, id)
	assert.False(t, ok, "gone after its TTL")
	_, claimed, _ = b.store.Claim(ctx, id, []byte("again"), time.Minute)
	assert.True(t, claimed)
}

func TestMiddlewareTTL(t *testing.T) {
	b := newBackend(t)
	if b.mini == nil {
		t.Skip("needs miniredis to advance time")
	}
	var n int
	mw, err := idempotency.New(idempotency.Config{Store: b.store, Unscoped: true, TTL: time.Hour})
	require.NoError(t, err)
	h := mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n++ }))
	post := func() {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Header.Set("Idempotency-Key", "k")
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	post()
	b.mini.FastForward(time.Hour - time.Millisecond)
	post()
	assert.Equal(t, 1, n)
	b.mini.FastForward(time.Millisecond)
	post()
	assert.Equal(t, 2, n, "after the TTL the key is new")
}

// TestResentClaim: go-redis resends a command whose reply was lost; a
// claim that finds itself is still a claim.
func TestResentClaim(t *testing.T) {
	b := newBackend(t)
	ctx := context.Background()
	id := idempotency.RecordID{Key: "k"}
	for range 2 {
		cur, claimed, err := b.store.Claim(ctx, id, []byte("claim"), time.Minute)
		require.NoError(t, err)
		assert.True(t, claimed)
		assert.Nil(t, cur)
	}
	for range 2 {
		ok, err := b.store.Replace(ctx, id, []byte("claim"), []byte("done"), time.Minute)
		require.NoError(t, err)
		assert.True(t, ok, "a resent replace succeeds")
	}
}

// commandCounter counts the commands sent to Redis.
type commandCounter struct {
	mu   sync.Mutex
	cmds []string
}

func (c *commandCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *commandCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.mu.Lock()
		c.cmds = append(c.cmds, cmd.Name())
		c.mu.Unlock()
		return next(ctx, cmd)
	}
}
func (c *commandCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

func (c *commandCounter) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	cmds := c.cmds
	c.cmds = nil
	return cmds
}

// TestOneRoundTrip: each decision is one command, once the scripts are
// cached on the server.
func TestOneRoundTrip(t *testing.T) {
	b := newBackend(t)
	cc := &commandCounter{}
	b.rdb.AddHook(cc)
	ctx := context.Background()
	id := idempotency.RecordID{Key: "k"}
	warm := idempotency.RecordID{Key: "warm"}
	b.store.Claim(ctx, warm, []byte("w"), time.Minute)
	b.store.Replace(ctx, warm, []byte("w"), []byte("w"), time.Minute)
	b.store.Release(ctx, warm, []byte("w"))
	cc.take()

	_, _, err := b.store.Claim(ctx, id, []byte("claim"), time.Minute)
	require.NoError(t, err)
	assert.Equal(t, []string{"evalsha"}, cc.take(), "claim")
	_, _, err = b.store.Claim(ctx, id, []byte("other"), time.Minute)
	require.NoError(t, err)
	assert.Equal(t, []string{"evalsha"}, cc.take(), "claim of a taken key")
	_, err = b.store.Replace(ctx, id, []byte("claim"), []byte("done"), time.Minute)
	require.NoError(t, err)
	assert.Equal(t, []string{"evalsha"}, cc.take(), "replace")
	_, _, err = b.store.Get(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, []string{"get"}, cc.take(), "get")
	_, err = b.store.Release(ctx, id, []byte("done"))
	require.NoError(t, err)
	assert.Equal(t, []string{"evalsha"}, cc.take(), "release")
}

// TestMalformedRecordInRedis: whatever sits in Redis under a record's key
// and is not a record is logged and treated as absent, never replayed.
func TestMalformedRecordInRedis(t *testing.T) {
	b := newBackend(t)
	var logs bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), nil))
	n := 0
	mw, err := idempotency.New(idempotency.Config{Store: b.store, Unscoped: true, Logger: logger})
	require.NoError(t, err)
	h := mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte("created"))
	}))
	ctx := context.Background()
	key := b.store.Key(idempotency.RecordID{Key: "k"})
	require.NoError(t, b.rdb.Set(ctx, key, `{"status":200,"body":"forged"}`, time.Hour).Err())

	for range 3 {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Header.Set("Idempotency-Key", "k")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		assert.Equal(t, http.StatusCreated, w.Code)
		assert.Equal(t, "created", w.Body.String())
	}
	assert.Equal(t, 1, n)
	mu.Lock()
	assert.Equal(t, 1, strings.Count(logs.String(), "malformed record treated as absent"), logs.String())
	mu.Unlock()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestMain(m *testing.M) {
	if addr := os.Getenv(addrEnv); addr != "" {
		println("redisstore tests: using the Redis server at", addr)
	}
	os.Exit(m.Run())
}
