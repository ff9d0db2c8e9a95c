// Package probes waits for a dependency to come back by opening a
// connection and closing it at once, a fixed second apart: the loop
// learns when the server answers and leaves no work behind, so a wave of
// such probes costs the server a handshake each, and the fixed delay is
// not reported (a delay that grows without a cap still is). The near
// misses do work in their attempts: a connection kept, one used before it
// is closed, a lock taken (an operation with only an error), a result
// dropped unclosed, a connection assigned to a variable that outlives the
// attempt.
package probes

import (
	"context"
	"net"
	"sync/atomic"
	"time"
)

type pool struct {
	dialer  func(ctx context.Context) (net.Conn, error)
	errs    atomic.Uint32
	closed  atomic.Bool
	lastErr atomic.Value
	conn    net.Conn
}

// redial runs after dial errors while requests fail fast: one dial a
// second until the server answers, closed at once. Not reported.
func (p *pool) redial() {
	for {
		if p.closed.Load() {
			return
		}
		conn, err := p.dialer(context.Background())
		if err != nil {
			p.lastErr.Store(err)
			time.Sleep(time.Second)
			continue
		}
		p.errs.Store(0)
		_ = conn.Close()
		return
	}
}

// waitReady probes with the standard dialer and closes in a statement of
// its own. Not reported.
func waitReady(ctx context.Context, addr string) error {
	var d net.Dialer
	for i := 0; i < 10; i++ {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return context.DeadlineExceeded
}

// growing probes with a doubling delay and no cap: still reported.
func (p *pool) growing() {
	delay := 100 * time.Millisecond
	for !p.closed.Load() {
		conn, err := p.dialer(context.Background())
		if err == nil {
			conn.Close()
			return
		}
		time.Sleep(delay) // want `retry delay grows exponentially with no cap`
		delay *= 2
	}
}

// connect keeps the connection it opens: a reconnect, reported.
func (p *pool) connect() {
	for !p.closed.Load() {
		conn, err := p.dialer(context.Background())
		if err == nil {
			p.conn = conn
			return
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

// hello writes before it closes: work, reported.
func (p *pool) hello() {
	for !p.closed.Load() {
		conn, err := p.dialer(context.Background())
		if err == nil {
			_, err = conn.Write([]byte("hello"))
			conn.Close()
			if err == nil {
				return
			}
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

type store interface {
	Lock(key string) error
}

// lock takes a lock, an operation that returns only an error: work,
// reported.
func lock(s store, probe func() (net.Conn, error)) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = s.Lock("k"); err == nil {
			var c net.Conn
			if c, err = probe(); err == nil {
				return c.Close()
			}
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return err
}

// dropped dials and drops the connection unclosed: not known to be a
// probe, reported.
func (p *pool) dropped() {
	for !p.closed.Load() {
		_, err := p.dialer(context.Background())
		if err == nil {
			return
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

// outer assigns the connection to a variable declared before the loop,
// used after it: reported.
func (p *pool) outer() error {
	var conn net.Conn
	var err error
	for i := 0; i < 3; i++ {
		conn, err = p.dialer(context.Background())
		if err == nil {
			break
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	if err != nil {
		return err
	}
	p.conn = conn
	return nil
}

// waitPort declares the connection in the attempt and assigns it with
// an error kept outside: still a probe. Not reported.
func waitPort(addr string) error {
	var err error
	for i := 0; i < 30; i++ {
		var c net.Conn
		c, err = net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
