// Package identified resends at once only after failures it picked out
// first: a pooled connection past its lifetime, a handshake the peer reset,
// a port another process took, the transport's own "resend" answer. Whether
// a resend at once is right for such a failure is not in the code, so it
// is not reported; the near misses go round on any failure and are.
package identified

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

var errStale = errors.New("pooled connection past its lifetime")

type resetError struct{ version int }

func (e *resetError) Error() string { return fmt.Sprintf("handshake v%d reset", e.version) }

type conn struct{ id int }

type pool struct{ next int }

func (p *pool) get() *conn { p.next++; return &conn{id: p.next} }

func (c *conn) send(cmd string) error {
	if c.id%2 == 0 {
		return errStale
	}
	return nil
}

func (c *conn) handshake(v int) error { return &resetError{version: v} }

// Send resends at once while the pool hands out connections past their
// lifetime: not reported.
func (p *pool) Send(cmd string) error {
again:
	err := p.get().send(cmd)
	if err == errStale {
		goto again
	}
	return err
}

// SendAny resends at once on every failure, for ever: reported.
func (p *pool) SendAny(cmd string) error {
again: // want `goto retry loop tries again at once after a failure` `goto retry loop has no bound`
	err := p.get().send(cmd)
	if err != nil {
		goto again
	}
	return nil
}

// Handshake tries again, at most twice more, when the peer reset the
// handshake (a type picked out with errors.As): not reported.
func (p *pool) Handshake() error {
	for tries := 1; ; tries++ {
		err := p.get().handshake(tries)
		if err == nil {
			return nil
		}
		var reset *resetError
		if errors.As(err, &reset) && tries < 3 {
			continue
		}
		return err
	}
}

// HandshakeAny tries three times whatever the failure: reported.
func (p *pool) HandshakeAny() error {
	var err error
	for tries := 1; tries <= 3; tries++ { // want `retry loop tries again at once after a failure`
		if err = p.get().handshake(tries); err == nil {
			return nil
		}
	}
	return err
}

// DialText dials again when the server reset the half-open connection,
// a failure picked out by its text: not reported.
func DialText(addr string) (net.Conn, error) {
	var err error
	for range 5 {
		var c net.Conn
		if c, err = net.Dial("tcp", addr); err == nil {
			return c, nil
		}
		if strings.Contains(err.Error(), "connection reset by peer") {
			continue
		}
		return nil, err
	}
	return nil, err
}

// DialAny dials again on any failure but one: reported.
func DialAny(addr string) (net.Conn, error) {
	var err error
	for range 5 { // want `retry loop tries again at once after a failure`
		var c net.Conn
		if c, err = net.Dial("tcp", addr); err == nil {
			return c, nil
		}
		if strings.Contains(err.Error(), "no such host") {
			return nil, err
		}
	}
	return nil, err
}

type transport struct{ p *pool }

// do reports whether a failed send is worth sending again (the request
// never left on a closed connection).
func (t *transport) do(cmd string) (bool, error) {
	c := t.p.get()
	if err := c.send(cmd); err != nil {
		return err == errStale, err
	}
	return false, nil
}

// Do resends at once when the transport says the failure is worth it: not
// reported.
func (t *transport) Do(cmd string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var again bool
		again, err = t.do(cmd)
		if err == nil || !again {
			break
		}
	}
	return err
}

// DialReset dials again on a refused connection, a case of a type switch:
// not reported.
func DialReset(addr string) (net.Conn, error) {
	for i := 0; i < 3; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c, nil
		}
		switch err.(type) {
		case *net.OpError:
			continue
		}
		return nil, err
	}
	return nil, errors.New("no connection")
}

// readChunk reads one chunk; errStale asks for the next.
func readChunk(c *conn) (int, error) { return 0, c.send("CHUNK") }

// ReadChunks calls itself when the chunk read says another follows: not
// reported.
func ReadChunks(c *conn) (int, error) {
	n, err := readChunk(c)
	if err != nil {
		if err == errStale {
			return ReadChunks(c)
		}
		return 0, err
	}
	return n, nil
}

// ReadChunksAny calls itself on any failure: reported.
func ReadChunksAny(c *conn) (int, error) {
	n, err := readChunk(c)
	if err != nil {
		return ReadChunksAny(c) // want `recursive retry tries again at once after a failure` `recursive retry has no bound`
	}
	return n, nil
}
