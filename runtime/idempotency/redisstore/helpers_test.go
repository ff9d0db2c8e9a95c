package redisstore_test

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/idempotency/redisstore"
)

// addrEnv names the environment variable that points the tests at a real
// redis-server (host:port). Without it they run against an embedded
// miniredis.
const addrEnv = "RESILINT_REDIS_ADDR"

// backend is a Redis server for one test, reached through a proxy that
// stop cuts off, so that a test can take Redis away from the store
// mid-test without stopping a server other tests share.
type backend struct {
	mini  *miniredis.Miniredis // nil with a real server
	proxy *proxy
	rdb   *redis.Client
	store *redisstore.Store
}

func newBackend(t *testing.T) *backend {
	t.Helper()
	b := &backend{}
	addr := os.Getenv(addrEnv)
	if addr == "" {
		b.mini = miniredis.RunT(t)
		addr = b.mini.Addr()
	}
	b.proxy = newProxy(t, addr)
	// Fail fast when the test takes Redis away: one resend, one dial.
	b.rdb = redis.NewClient(&redis.Options{Addr: b.proxy.addr(), MaxRetries: 1, DialerRetries: 1})
	t.Cleanup(func() { b.rdb.Close() })
	if b.mini == nil {
		require.NoError(t, b.rdb.Ping(context.Background()).Err(), "%s=%s is set but Redis does not answer", addrEnv, addr)
	}
	prefix := "resilint-test:" + rand.Text() + ":"
	s, err := redisstore.New(redisstore.Config{Client: b.rdb, Prefix: prefix})
	require.NoError(t, err)
	b.store = s
	if b.mini == nil {
		t.Cleanup(func() { clean(t, addr, prefix) })
	}
	return b
}

// clean deletes the keys a test left on a real server, directly (the test
// may have cut the proxy).
func clean(t *testing.T, addr, prefix string) {
	direct := redis.NewClient(&redis.Options{Addr: addr})
	defer direct.Close()
	ctx := context.Background()
	iter := direct.Scan(ctx, 0, prefix+"*", 100).Iterator()
	for iter.Next(ctx) {
		direct.Del(ctx, iter.Val())
	}
	if err := iter.Err(); err != nil {
		t.Logf("cleaning up %s*: %v", prefix, err)
	}
}

// stop makes Redis unreachable: it closes the proxy and every connection
// through it, and closes miniredis.
func (b *backend) stop() {
	b.proxy.close()
	if b.mini != nil {
		b.mini.Close()
	}
}

// proxy forwards TCP connections to a Redis server until closed.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	closed bool
	wg     sync.WaitGroup
}

func newProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &proxy{ln: ln, target: target}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		u, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		if !p.track(c, u) {
			return
		}
		p.wg.Add(2)
		go p.pipe(c, u)
		go p.pipe(u, c)
	}
}

func (p *proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	p.conns = append(p.conns, cs...)
	return true
}

func (p *proxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	_, err := io.Copy(dst, src)
	if err != nil && !errors.Is(err, net.ErrClosed) {
		_ = err // a reset connection: the other direction ends too
	}
	dst.Close()
	src.Close()
}

func (p *proxy) close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.ln.Close()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
