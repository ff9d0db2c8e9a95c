package redisstore_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilint/resilint/runtime/idempotency"
	"github.com/resilint/resilint/runtime/idempotency/redisstore"
)

// ownRedis starts a redis-server of the test's own (no persistence), so that
// the test may pause or kill it without disturbing a server other tests
// share. It skips the test if redis-server is not installed.
type ownRedis struct {
	t    *testing.T
	port int
	cmd  *exec.Cmd
}

func startOwnRedis(t *testing.T) *ownRedis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server is not installed (apt-get install redis-server)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	r := &ownRedis{t: t, port: port}
	r.start()
	t.Cleanup(func() { r.kill() })
	return r
}

func (r *ownRedis) addr() string { return fmt.Sprintf("127.0.0.1:%d", r.port) }

func (r *ownRedis) start() {
	r.t.Helper()
	r.cmd = exec.Command("redis-server", "--port", fmt.Sprint(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no")
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		r.t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	// The server says when it listens; read its log until then (and keep
	// reading, so that it never blocks on a full pipe).
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		said := false
		for sc.Scan() {
			if !said && strings.Contains(sc.Text(), "Ready to accept connections") {
				said = true
				ready <- true
			}
		}
		if !said {
			ready <- false
		}
	}()
	if !<-ready {
		r.t.Fatal("redis-server exited before accepting connections")
	}
}

// kill ends the server as kill -9 does: no shutdown, nothing saved.
func (r *ownRedis) kill() {
	if r.cmd != nil && r.cmd.Process != nil {
		r.cmd.Process.Kill()
		r.cmd.Wait()
		r.cmd = nil
	}
}

// firstBlocks is a handler whose first execution waits for release; later
// executions (which must not happen while the first runs) answer at once.
type firstBlocks struct {
	runs    atomic.Int32
	entered chan struct{}
	release chan struct{}
}

func newFirstBlocks() *firstBlocks {
	return &firstBlocks{entered: make(chan struct{}), release: make(chan struct{})}
}

func (h *firstBlocks) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := h.runs.Add(1)
	if n == 1 {
		close(h.entered)
		<-h.release
	}
	w.WriteHeader(http.StatusCreated)
	fmt.Fprintf(w, "execution %d", n)
}

func post(h http.Handler, key string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/charges", strings.NewReader(`{"amount":1}`))
	r.Header.Set("Idempotency-Key", key)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// Issue 11 (5): Redis paused (CLIENT PAUSE) for longer than the lease while
// the first request's handler runs. The claim must survive the pause: the
// duplicate sent during the pause gets 409 once Redis answers again, and
// the handler runs once.
func TestPauseLongerThanLease(t *testing.T) {
	srv := startOwnRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr(), ContextTimeoutEnabled: true})
	defer rdb.Close()
	store, err := redisstore.New(redisstore.Config{Client: rdb})
	if err != nil {
		t.Fatal(err)
	}
	const lease = 500 * time.Millisecond
	mw, err := idempotency.New(idempotency.Config{Store: store, Scope: func(*http.Request) string { return "t" },
		Lease: lease, StoreTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h := newFirstBlocks()
	hh := mw.Wrap(h)
	var wg sync.WaitGroup
	var first *httptest.ResponseRecorder
	wg.Go(func() { first = post(hh, "pay-1") })
	<-h.entered

	admin := redis.NewClient(&redis.Options{Addr: srv.addr()})
	defer admin.Close()
	if err := admin.Do(context.Background(), "CLIENT", "PAUSE", (3 * lease).Milliseconds(), "ALL").Err(); err != nil {
		t.Fatal(err)
	}
	// Sent during the pause; Redis answers it after the pause, when the
	// claim's original lease has long passed.
	dup := post(hh, "pay-1")
	if dup.Code != http.StatusConflict {
		t.Errorf("duplicate after a pause longer than the lease: %d %q; want 409", dup.Code, dup.Body.String())
	}
	close(h.release)
	wg.Wait()
	if first.Code != http.StatusCreated {
		t.Errorf("first request: %d", first.Code)
	}
	if again := post(hh, "pay-1"); again.Body.String() != "execution 1" {
		t.Errorf("retry after the first finished: %d %q; want the replay of execution 1", again.Code, again.Body.String())
	}
	if n := h.runs.Load(); n != 1 {
		t.Errorf("the handler ran %d times, want once", n)
	}
}

// Issue 11 (5), what remains: Redis killed (kill -9) without persistence
// while the handler runs. While Redis is down every request with a key gets
// 503 and the handler does not run (fail closed). Once a new, empty Redis
// is up, the claim is gone: a retry runs the handler a second time. Only
// the loss of Redis's data can do that; run Redis with persistence (AOF) or
// replication where a second execution is unacceptable.
func TestKilledRedisLosesClaims(t *testing.T) {
	srv := startOwnRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr(), ContextTimeoutEnabled: true, MaxRetries: 1, DialerRetries: 1})
	defer rdb.Close()
	store, err := redisstore.New(redisstore.Config{Client: rdb})
	if err != nil {
		t.Fatal(err)
	}
	mw, err := idempotency.New(idempotency.Config{Store: store, Scope: func(*http.Request) string { return "t" },
		StoreTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h := newFirstBlocks()
	hh := mw.Wrap(h)
	var wg sync.WaitGroup
	wg.Go(func() { post(hh, "pay-2") })
	<-h.entered

	srv.kill()
	if w := post(hh, "pay-2"); w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Errorf("duplicate while Redis is down: %d, Retry-After %q; want 503 with Retry-After", w.Code, w.Header().Get("Retry-After"))
	}
	if n := h.runs.Load(); n != 1 {
		t.Errorf("the handler ran %d times while Redis was down, want once", n)
	}
	srv.start()
	if w := post(hh, "pay-2"); w.Code != http.StatusCreated {
		t.Errorf("retry after Redis came back empty: %d; the claim was lost with Redis's data, so the handler runs again", w.Code)
	}
	if n := h.runs.Load(); n != 2 {
		t.Errorf("the handler ran %d times, want twice (the documented limit: Redis lost its data)", n)
	}
	close(h.release)
	wg.Wait()
}
