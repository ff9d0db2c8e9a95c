package deadline_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/deadline"
)

// The proof: three services chained order → inventory → pricing, and
// pricing's vendor, a fourth server that takes far longer than anyone waits.
// The caller gives the whole chain 300ms.
//
// With the runtime (a Transport on every client, the Middleware on every
// server), every hop's context ends before the caller's deadline, the vendor
// stops, the caller gets a 504 before its deadline, and no work is left
// running when the deadline comes. Without it (each hop calls the next with
// a uniform 5s timeout of its own, made from context.Background), all four
// handlers are still working for a caller that has gone: zombies.
//
// Real net/http servers and clients, on an in-memory network (net.Pipe),
// inside a testing/synctest bubble: time is fake and moves only when every
// goroutine waits, so the result does not depend on the machine's speed or
// load.

const (
	callerTimeout = 300 * time.Millisecond
	vendorWork    = 10 * time.Second // cancellable; far beyond any timeout here
	hopTimeout    = 5 * time.Second  // the uniform timeout of the anti-pattern
	boundedWait   = 2 * time.Second  // upper bound for a state to be reached
	// Margins small enough for four hops within callerTimeout, large enough
	// for a loaded machine: each hop costs 40ms, the vendor's context ends
	// about 160ms before the caller's deadline.
	margin  = 20 * time.Millisecond
	minimum = 20 * time.Millisecond
)

type mode int

const (
	withRuntime    mode = iota // Transport + Middleware, r.Context() passed on
	uniformTimeout             // plain clients, context.WithTimeout(context.Background(), 5s) per hop
	contextOnly                // plain clients, r.Context() passed on, no deadline headers
)

// chain is the four servers and what they observe.
type chain struct {
	t        *testing.T
	mode     mode
	orderURL string

	net           *memNet
	running       atomic.Int32  // handlers at work, the vendor's included
	changed       chan struct{} // a handler ended; capacity 1
	lastEnd       atomic.Int64  // when the last handler ended, Unix ns
	vendorStarted chan struct{} // the vendor began working; capacity 1
	release       chan struct{} // closed at cleanup: ends any work left

	vendorDone sync.Mutex
	vendorErr  error // why the vendor stopped: its context's error, or nil
	completed  atomic.Int32

	deadlines sync.Map // server name → the deadline its handler saw (time.Time)
}

func newChain(t *testing.T, m mode) *chain {
	c := &chain{
		t: t, mode: m, net: newMemNet(),
		changed:       make(chan struct{}, 1),
		vendorStarted: make(chan struct{}, 1),
		release:       make(chan struct{}),
	}
	vendor := c.server("vendor", http.HandlerFunc(c.vendor))
	pricing := c.server("pricing", c.hop("pricing", vendor))
	inventory := c.server("inventory", c.hop("inventory", pricing))
	c.orderURL = c.server("order", c.hop("order", inventory))
	// Cleanups run last in, first out: work is released before the servers
	// close (Close waits for the handlers).
	t.Cleanup(func() { close(c.release) })
	return c
}

// server starts a server for h on the in-memory network, wrapped in the
// Middleware with the runtime, and returns its URL.
func (c *chain) server(name string, h http.Handler) string {
	if c.mode == withRuntime {
		mw, err := deadline.NewMiddleware(deadline.MiddlewareConfig{Margin: margin, Minimum: minimum})
		require.NoError(c.t, err)
		h = mw.Wrap(h)
	}
	srv := &http.Server{Handler: h}
	l := c.net.listen(name)
	go srv.Serve(l)
	c.t.Cleanup(func() { srv.Close() })
	return "http://" + name + "/"
}

// client returns a client of its own for one hop (or the caller), on the
// in-memory network, through a Transport with the runtime.
func (c *chain) client() *http.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.DialContext = c.net.dial
	c.t.Cleanup(base.CloseIdleConnections)
	if c.mode != withRuntime {
		return &http.Client{Transport: base}
	}
	tr, err := deadline.NewTransport(deadline.TransportConfig{Base: base, Margin: margin, Minimum: minimum})
	require.NoError(c.t, err)
	return &http.Client{Transport: tr}
}

// memNet is an in-memory network of named listeners; a dial makes a
// net.Pipe. Waiting on it is durable blocking for testing/synctest.
type memNet struct {
	mu        sync.Mutex
	listeners map[string]*memListener
}

func newMemNet() *memNet { return &memNet{listeners: map[string]*memListener{}} }

func (n *memNet) listen(name string) *memListener {
	l := &memListener{name: name, conns: make(chan net.Conn), done: make(chan struct{})}
	n.mu.Lock()
	n.listeners[name] = l
	n.mu.Unlock()
	return l
}

func (n *memNet) dial(ctx context.Context, _, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	l := n.listeners[host]
	n.mu.Unlock()
	if l == nil {
		return nil, errors.New("memnet: no listener for " + addr)
	}
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type memListener struct {
	name  string
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *memListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *memListener) Close() error { l.once.Do(func() { close(l.done) }); return nil }

func (l *memListener) Addr() net.Addr { return memAddr(l.name) }

type memAddr string

func (a memAddr) Network() string { return "mem" }
func (a memAddr) String() string  { return string(a) }

// begin counts a handler at work; the function it returns counts it out.
func (c *chain) begin(name string, r *http.Request) func() {
	c.running.Add(1)
	if d, ok := r.Context().Deadline(); ok {
		c.deadlines.Store(name, d)
	}
	return func() {
		c.lastEnd.Store(time.Now().UnixNano())
		c.running.Add(-1)
		select {
		case c.changed <- struct{}{}:
		default:
		}
	}
}

// hop is order, inventory or pricing: it calls the next service and answers
// with its status, 504 if the call ran out of time, 502 if it failed.
func (c *chain) hop(name, next string) http.Handler {
	client := c.client()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer c.begin(name, r)()
		ctx := r.Context()
		if c.mode == uniformTimeout {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(context.Background(), hopTimeout)
			defer cancel()
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, next, nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		resp, err := client.Do(req)
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			w.WriteHeader(http.StatusGatewayTimeout)
			return
		case err != nil:
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		io.Copy(io.Discard, resp.Body)
		w.WriteHeader(resp.StatusCode)
	})
}

// vendor works for vendorWork unless its context ends first (or the test
// releases it).
func (c *chain) vendor(w http.ResponseWriter, r *http.Request) {
	defer c.begin("vendor", r)()
	select {
	case c.vendorStarted <- struct{}{}:
	default:
	}
	work := time.NewTimer(vendorWork)
	defer work.Stop()
	select {
	case <-r.Context().Done():
		c.vendorDone.Lock()
		c.vendorErr = r.Context().Err()
		c.vendorDone.Unlock()
		w.WriteHeader(http.StatusGatewayTimeout)
	case <-work.C:
		c.completed.Add(1)
	case <-c.release:
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func (c *chain) vendorStopped() error {
	c.vendorDone.Lock()
	defer c.vendorDone.Unlock()
	return c.vendorErr
}

// call sends the caller's request to order with ctx, in a goroutine; the
// channel gets the outcome.
type outcome struct {
	status int // 0: no response
	err    error
	at     time.Time
}

func (c *chain) call(ctx context.Context) <-chan outcome {
	client := c.client()
	done := make(chan outcome, 1)
	go func() {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.orderURL, nil)
		if err != nil {
			done <- outcome{err: err, at: time.Now()}
			return
		}
		resp, err := client.Do(req)
		o := outcome{err: err, at: time.Now()}
		if err == nil {
			o.status = resp.StatusCode
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		done <- o
	}()
	return done
}

// wait returns what ch delivers, or fails the test after boundedWait.
func wait[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(boundedWait):
		require.FailNow(t, "timed out waiting for "+what)
		panic("unreachable")
	}
}

// waitIdle waits until no handler is at work, or until the time limit, and
// reports whether none is.
func (c *chain) waitIdle(limit time.Time) bool {
	timer := time.NewTimer(time.Until(limit))
	defer timer.Stop()
	for c.running.Load() != 0 {
		select {
		case <-c.changed:
		case <-timer.C:
			return c.running.Load() == 0
		}
	}
	return true
}

func (c *chain) logDeadlines(callerDeadline time.Time) {
	for _, name := range []string{"order", "inventory", "pricing", "vendor"} {
		if d, ok := c.deadlines.Load(name); ok {
			c.t.Logf("%-9s context deadline: %v before the caller's", name, callerDeadline.Sub(d.(time.Time)).Round(time.Millisecond))
		} else {
			c.t.Logf("%-9s context deadline: none", name)
		}
	}
}

func TestChainStopsAtTheCallersDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newChain(t, withRuntime)
		ctx, cancel := context.WithTimeout(context.Background(), callerTimeout)
		defer cancel()
		callerDeadline, _ := ctx.Deadline()

		done := c.call(ctx)
		wait(t, c.vendorStarted, "the request to reach the vendor")
		o := wait(t, done, "the caller's answer")

		// The caller gets an answer, a 504, before its deadline, instead of
		// having to give up.
		require.NoError(t, o.err)
		assert.Equal(t, http.StatusGatewayTimeout, o.status)
		assert.True(t, o.at.Before(callerDeadline), "answer %v after the deadline", o.at.Sub(callerDeadline))

		// By the caller's deadline, nothing is at work any more: no zombies.
		idle := c.waitIdle(callerDeadline)
		zombies := c.running.Load()
		<-ctx.Done()
		assert.True(t, idle)
		assert.Zero(t, zombies, "handlers still at work at the caller's deadline")
		assert.Zero(t, c.running.Load(), "handlers still at work after the caller's deadline")
		t.Logf("zombies at the caller's deadline: %d; the last handler ended %v before it",
			zombies, callerDeadline.Sub(time.Unix(0, c.lastEnd.Load())).Round(time.Millisecond))

		// The vendor stopped because its deadline, derived hop by hop, passed.
		assert.ErrorIs(t, c.vendorStopped(), context.DeadlineExceeded)
		assert.Zero(t, c.completed.Load())
		vd, ok := c.deadlines.Load("vendor")
		require.True(t, ok, "the vendor's context had no deadline")
		assert.True(t, vd.(time.Time).Before(callerDeadline))
		c.logDeadlines(callerDeadline)
	})
}

func TestChainWithoutTheRuntimeLeavesZombies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newChain(t, uniformTimeout)
		ctx, cancel := context.WithTimeout(context.Background(), callerTimeout)
		defer cancel()
		callerDeadline, _ := ctx.Deadline()

		done := c.call(ctx)
		wait(t, c.vendorStarted, "the request to reach the vendor")
		o := wait(t, done, "the caller to give up")

		// The caller gives up at its deadline, without an answer...
		assert.ErrorIs(t, o.err, context.DeadlineExceeded)
		assert.Zero(t, o.status)

		// ...and every handler is still at work for it: order, inventory,
		// pricing wait on their 5s timeouts, the vendor on its 10s of work. Only
		// the release at cleanup ends them.
		<-ctx.Done()
		zombies := c.running.Load()
		assert.Equal(t, int32(4), zombies, "handlers still at work at the caller's deadline")
		assert.NoError(t, c.vendorStopped(), "the vendor was told to stop")
		t.Logf("zombies at the caller's deadline: %d, left to run up to %v (the hops' timeouts)", zombies, hopTimeout)
		c.logDeadlines(callerDeadline)
	})
}

// Passing r.Context() on without the runtime stops the chain only when the
// caller hangs up, by the cancellation net/http derives from the closed
// connection: the caller gets no answer, and each hop learns of it only
// from its caller's connection.
func TestChainWithContextOnlyStopsWhenTheCallerHangsUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newChain(t, contextOnly)
		ctx, cancel := context.WithTimeout(context.Background(), callerTimeout)
		defer cancel()
		callerDeadline, _ := ctx.Deadline()

		done := c.call(ctx)
		wait(t, c.vendorStarted, "the request to reach the vendor")
		o := wait(t, done, "the caller to give up")
		assert.ErrorIs(t, o.err, context.DeadlineExceeded)
		assert.Zero(t, o.status)
		assert.True(t, c.waitIdle(time.Now().Add(boundedWait)), "the hang-up did not reach every hop")
		assert.ErrorIs(t, c.vendorStopped(), context.Canceled, "the vendor stops by the hang-up, not by a deadline")
		_, ok := c.deadlines.Load("vendor")
		assert.False(t, ok)
		c.logDeadlines(callerDeadline)
	})
}

func TestChainClientDisconnectCancelsDownstreamWork(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newChain(t, withRuntime)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()

		done := c.call(ctx)
		wait(t, c.vendorStarted, "the request to reach the vendor")
		cancel() // the caller goes away long before its deadline
		o := wait(t, done, "the caller's call to return")
		assert.ErrorIs(t, o.err, context.Canceled)

		assert.True(t, c.waitIdle(time.Now().Add(boundedWait)), "downstream work goes on after the caller went away")
		assert.ErrorIs(t, c.vendorStopped(), context.Canceled)
		assert.Zero(t, c.completed.Load())
		// Every hop had the caller's deadline, less the margins.
		for _, name := range []string{"order", "inventory", "pricing", "vendor"} {
			_, ok := c.deadlines.Load(name)
			assert.True(t, ok, name)
		}
	})
}
