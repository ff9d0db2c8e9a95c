package redisstore_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/idempotency"
	"github.com/resilint/resilint/runtime/idempotency/redisstore"
)

// blackhole accepts connections and never answers, like a Redis server
// that hangs or a network that drops packets.
func blackhole(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return ln.Addr().String()
}

// TestRedisHangs: a Redis that does not answer costs a request
// StoreTimeout, then 503; the handler does not run. The client must let
// contexts bound its calls (ContextTimeoutEnabled).
func TestRedisHangs(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: blackhole(t), ContextTimeoutEnabled: true, MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	s, err := redisstore.New(redisstore.Config{Client: rdb})
	require.NoError(t, err)
	mw, err := idempotency.New(idempotency.Config{Store: s, Unscoped: true, StoreTimeout: 100 * time.Millisecond})
	require.NoError(t, err)
	ran := false
	h := mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ran = true }))

	r := httptest.NewRequest(http.MethodPost, "/", nil)
	r.Header.Set("Idempotency-Key", "k")
	w := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(w, r)
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.Less(t, time.Since(start), 2*time.Second, "StoreTimeout bounds the wait")
	assert.False(t, ran)
}
