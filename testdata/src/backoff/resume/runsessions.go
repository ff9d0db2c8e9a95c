package resume

import (
	"errors"
	"net"
	"time"
)

// A feed dials its collector and serves it until the connection drops.
type feed struct {
	addr string
	conn net.Conn
	quit chan struct{}
}

// serve answers the collector until the connection fails: a session.
func (f *feed) serve() error {
	buf := make([]byte, 256)
	for {
		n, err := f.conn.Read(buf)
		if err != nil {
			return err
		}
		if _, err := f.conn.Write(buf[:n]); err != nil {
			return err
		}
	}
}

// listen runs the session to its end and says whether to reconnect:
// no error result, but it returns only once the session failed.
func (f *feed) listen() bool {
	err := f.serve()
	f.conn.Close()
	return !errors.Is(err, net.ErrClosed)
}

// Reconnect dials, serves until the connection drops, and dials again
// after the same fixed pause in every client: a reconnect loop, its
// pause a retry delay. Reported.
func (f *feed) Reconnect() {
	for {
		conn, err := net.Dial("tcp", f.addr)
		if err == nil {
			f.conn = conn
			again := f.listen()
			if !again {
				return
			}
		}
		select {
		case <-f.quit:
			return
		case <-time.After(2 * time.Second): // want `retry delay has no jitter`
		}
	}
}

// ReconnectDropped drops the session's error: the session still ended
// in a failure. Reported.
func (f *feed) ReconnectDropped() {
	for {
		conn, err := net.Dial("tcp", f.addr)
		if err == nil {
			f.conn = conn
			f.serve()
		}
		select {
		case <-f.quit:
			return
		case <-time.After(2 * time.Second): // want `retry delay has no jitter`
		}
	}
}

// The near miss: report answers once per pass and returns; the loop is
// a poll on a fixed interval, its pause no retry delay.
func (f *feed) report() bool {
	if f.conn == nil {
		return false
	}
	_, err := f.conn.Write([]byte("tick"))
	return err == nil
}

func (f *feed) Poll() {
	for {
		conn, err := net.Dial("tcp", f.addr)
		if err == nil {
			f.conn = conn
			if !f.report() {
				return
			}
			conn.Close()
		}
		select {
		case <-f.quit:
			return
		case <-time.After(2 * time.Second):
		}
	}
}

// ReconnectAtOnce redials as soon as the session drops, and pauses only
// after a failed dial: the session's life paces the reconnects, and the
// pause after a failed dial is a retry delay. Reported.
func (f *feed) ReconnectAtOnce() {
	for {
		conn, err := net.Dial("tcp", f.addr)
		if err != nil {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		f.conn = conn
		f.serve()
	}
}
