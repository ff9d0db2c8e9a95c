// Package hostlocal: retries whose every attempt stays on this host —
// binding a listener on a port the kernel picks, redialing the local
// agent's Unix socket — overwhelm no shared dependency, whatever they
// wait. Near misses reach another host, or may.
package hostlocal

import (
	"errors"
	"net"
	"strings"
	"time"
)

type transport struct {
	tcp *net.TCPListener
	udp *net.UDPConn
}

func bind(port int) (*transport, error) {
	tcp, err := net.ListenTCP("tcp", &net.TCPAddr{Port: port})
	if err != nil {
		return nil, err
	}
	port = tcp.Addr().(*net.TCPAddr).Port
	udp, err := net.ListenUDP("udp", &net.UDPAddr{Port: port})
	if err != nil {
		tcp.Close()
		return nil, err
	}
	if err := udp.SetReadBuffer(1 << 20); err != nil {
		return nil, err
	}
	return &transport{tcp: tcp, udp: udp}, nil
}

// BindAny binds both protocols on the same kernel-chosen port, again at
// once when the UDP port was taken meanwhile: nothing remote is retried.
func BindAny() (*transport, error) {
	var err error
	for range 10 {
		var t *transport
		if t, err = bind(0); err == nil {
			return t, nil
		}
		if strings.Contains(err.Error(), "address already in use") {
			continue
		}
	}
	return nil, err
}

// DialAgent redials the host's agent socket after a fixed pause.
func DialAgent(path string) (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ {
		var c net.Conn
		if c, err = net.Dial("unix", path); err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// RedialAgent redials the agent's resolved Unix address after a pause,
// on a refused connection.
func RedialAgent(path string, timeout time.Duration) (net.Conn, error) {
	addr, err := net.ResolveUnixAddr("unixgram", path)
	if err != nil {
		return nil, err
	}
	for left := 3; ; left-- {
		c, err := net.DialTimeout(addr.Network(), addr.String(), timeout)
		if err != nil {
			if strings.HasSuffix(err.Error(), "connection refused") && left > 0 {
				time.Sleep(250 * time.Millisecond)
				continue
			}
			return nil, err
		}
		return c, nil
	}
}

// DialServer redials a TCP server after a fixed pause: every client that
// lost it redials together.
func DialServer(addr string) (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ {
		var c net.Conn
		if c, err = net.Dial("tcp", addr); err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return nil, err
}

type registry interface {
	Announce(addr net.Addr) error
}

type announcer struct {
	reg registry
}

// BindAndAnnounce binds, then announces the address to a registry that
// may be anywhere: reported.
func (a *announcer) BindAndAnnounce() error {
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		t, err := bind(0)
		if err != nil {
			continue
		}
		if err := a.reg.Announce(t.tcp.Addr()); err != nil {
			continue
		}
		return nil
	}
	return errors.New("could not bind and announce")
}
