package hostlocal

import (
	"errors"
	"net"
	"time"
)

// taken reports whether something answers at addr.
func taken(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 250*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// ListenOrShare binds addr, and when that fails asks whether another
// listener already holds it: the dial goes to an address this host
// binds. Not reported.
func ListenOrShare(addr string) (net.Listener, error) {
	var err error
	for i := 0; i < 3; i++ {
		if i > 0 {
			time.Sleep(100 * time.Millisecond)
		}
		var ln net.Listener
		ln, err = net.Listen("tcp", addr)
		if err == nil {
			return ln, nil
		}
		if taken(addr) {
			return nil, nil
		}
	}
	return nil, err
}

// Near miss: the dial goes to another address, the upstream's.
func ListenOrProbeUpstream(addr, upstream string) (net.Listener, error) {
	var err error
	for i := 0; i < 3; i++ {
		if i > 0 {
			time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
		}
		var ln net.Listener
		ln, err = net.Listen("tcp", addr)
		if err == nil {
			return ln, nil
		}
		if taken(upstream) {
			return nil, errors.New("upstream up, port taken")
		}
	}
	return nil, err
}

// Near miss: the variable bound is given the upstream's address before
// the dial.
func ListenThenProbeMoved(addr, upstream string) (net.Listener, error) {
	var err error
	for i := 0; i < 3; i++ {
		if i > 0 {
			time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
		}
		a := addr
		var ln net.Listener
		ln, err = net.Listen("tcp", a)
		if err == nil {
			return ln, nil
		}
		a = upstream
		if taken(a) {
			return nil, errors.New("upstream up, port taken")
		}
	}
	return nil, err
}
