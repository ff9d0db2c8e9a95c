package ratelimit_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/ratelimit"
	"github.com/resilint/resilint/runtime/retry"
)

// pipeListener is a net.Listener whose connections are in-memory pipes,
// so that an httptest server and its client run inside a synctest bubble
// (time advances only when every goroutine of the bubble waits, which a
// goroutine reading a real socket does not count as).
type pipeListener struct {
	conns     chan net.Conn
	closed    chan struct{}
	closeOnce sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80} }

func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.closed:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// limitedServer starts, inside the bubble, an httptest server limited to 2
// requests per 10 seconds per caller, and returns a client for it.
func limitedServer(t *testing.T) (*httptest.Server, *http.Client, *int) {
	l, err := ratelimit.New(ratelimit.Config{Limit: 2, Window: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	mw, err := ratelimit.NewMiddleware(ratelimit.MiddlewareConfig{Limiter: l, Key: ratelimit.Header("X-Api-Key")})
	if err != nil {
		t.Fatal(err)
	}
	served := new(int)
	srv := httptest.NewUnstartedServer(mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*served++
		io.WriteString(w, "ok")
	})))
	srv.Listener.Close()
	pl := newPipeListener()
	srv.Listener = pl
	srv.Start()
	tr := &http.Transport{DialContext: pl.dial}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		srv.Close()
	})
	return srv, &http.Client{Transport: tr}, served
}

func get(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-Api-Key", "client-1")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return retry.HTTPError(resp)
}

// TestRetryHonoursRetryAfter: a client that retries with runtime/retry
// comes back after the Retry-After of the 429, not at once, and its next
// attempt is admitted. The 429 is not taken for an open circuit.
func TestRetryHonoursRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Start on a window boundary, so the numbers are round.
		time.Sleep(time.Until(time.Now().Truncate(10 * time.Second).Add(10 * time.Second)))
		srv, client, served := limitedServer(t)
		ctx := context.Background()
		for range 2 {
			if err := get(ctx, client, srv.URL); err != nil {
				t.Fatal(err)
			}
		}
		type attempt struct {
			at  time.Time
			err error
		}
		var attempts []attempt
		policy := &retry.Policy{MaxAttempts: 3, BaseDelay: 10 * time.Millisecond, MaxDelay: time.Minute}
		start := time.Now()
		err := retry.Do(ctx, policy, func(ctx context.Context) error {
			err := get(ctx, client, srv.URL)
			attempts = append(attempts, attempt{time.Now(), err})
			return err
		})
		if err != nil {
			t.Fatalf("retry.Do: %v after %d attempts", err, len(attempts))
		}
		if len(attempts) != 2 {
			t.Fatalf("%d attempts, want 2", len(attempts))
		}
		var se *retry.StatusError
		if !errors.As(attempts[0].err, &se) || se.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("first attempt: %v", attempts[0].err)
		}
		if retry.IsCircuitOpen(attempts[0].err) {
			t.Error("a 429 of the rate limiter was taken for an open circuit")
		}
		// Two requests in this 10s window: one more fits at 10s + 5s
		// (2×(1−q) + 1 ≤ 2 at q = 1/2): Retry-After 15.
		if se.RetryAfter() != 15*time.Second {
			t.Errorf("Retry-After %v, want 15s", se.RetryAfter())
		}
		if waited := attempts[1].at.Sub(start); waited < 15*time.Second || waited > 16*time.Second {
			t.Errorf("second attempt after %v, want 15s (the Retry-After)", waited)
		}
		if *served != 3 {
			t.Errorf("handler ran %d times, want 3", *served)
		}
	})
}

// TestRetryHonoursDecisionErr: outside HTTP, the error of a refused
// Decision carries its wait, and runtime/retry waits exactly that long.
func TestRetryHonoursDecisionErr(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, err := ratelimit.New(ratelimit.Config{Limit: 1, Window: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		l.Allow(ctx, "job")
		var errs []error
		start := time.Now()
		err = retry.Do(ctx, &retry.Policy{MaxAttempts: 2, BaseDelay: time.Millisecond}, func(ctx context.Context) error {
			d, err := l.Allow(ctx, "job")
			if err != nil {
				return err
			}
			errs = append(errs, d.Err())
			return d.Err()
		})
		if err != nil {
			t.Fatalf("retry.Do: %v", err)
		}
		var le *ratelimit.LimitedError
		if len(errs) != 2 || !errors.As(errs[0], &le) {
			t.Fatalf("attempts: %v", errs)
		}
		if retry.IsCircuitOpen(errs[0]) {
			t.Error("a refusal of the limiter was taken for an open circuit")
		}
		if waited := time.Since(start); waited != le.RetryAfter() {
			t.Errorf("waited %v, want the RetryAfter %v", waited, le.RetryAfter())
		}
	})
}
