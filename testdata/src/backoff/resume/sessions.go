package resume

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"time"
)

// A subscriber holds one connection and reads from it until it breaks:
// its session methods never return nil.
type subscriber struct {
	addr  string
	pause time.Duration
	last  error
}

// session dials and reads until the connection fails: every return
// gives a non-nil error.
func (s *subscriber) session(ctx context.Context) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return fmt.Errorf("dial %s: %w", s.addr, err)
	}
	defer conn.Close()
	return s.read(ctx, conn)
}

func (s *subscriber) read(ctx context.Context, conn net.Conn) error {
	buf := make([]byte, 512)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if _, err := conn.Read(buf); err != nil {
			return err
		}
	}
}

// The reconnect loop never tests the session's error: the session can
// only end in a failure, so every pass is a reconnect after one.
func (s *subscriber) run(ctx context.Context) error {
	for {
		err := s.session(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		log.Print(err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.pause): // want `retry delay has no jitter`
		}
	}
}

// Tested or not, the pause after a session ends is a reconnect delay.
func (s *subscriber) keep(ctx context.Context) {
	for ctx.Err() == nil {
		if err := s.read(ctx, nil); err != nil {
			log.Print(err)
		}
		time.Sleep(2 * time.Second) // want `retry delay has no jitter`
	}
}

// poll may end well (nil when its context ends): a loop that calls it
// and waits on every path is a poll, not a reconnect.
func (s *subscriber) poll(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case <-time.After(time.Millisecond):
	}
	return errors.New("nothing yet")
}

func (s *subscriber) poller(ctx context.Context) {
	for ctx.Err() == nil {
		if err := s.poll(ctx); err != nil {
			log.Print(err)
		}
		time.Sleep(2 * time.Second)
	}
}

// relay returns the error a reader goroutine left, which may be nil.
func (s *subscriber) relay(ctx context.Context) error {
	if ctx.Err() != nil {
		return errors.New("stopped")
	}
	err := s.last
	return err
}

func (s *subscriber) relayer(ctx context.Context) {
	for ctx.Err() == nil {
		if err := s.relay(ctx); err != nil {
			log.Print(err)
		}
		time.Sleep(2 * time.Second)
	}
}

// serveConns accepts connections until its listener fails: a loop that
// restarts it restarts a listener of this host, no dependency.
func serveConns(ln net.Listener, handle func(net.Conn)) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		go handle(c)
	}
}

func restart(ctx context.Context, addr string, handle func(net.Conn)) {
	for ctx.Err() == nil {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return
		}
		log.Print(serveConns(ln, handle))
		time.Sleep(time.Second)
	}
}
