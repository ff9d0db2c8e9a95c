package hostlocal

import (
	"fmt"
	"net"
	"time"
)

// DialChild redials a server this process started on the loopback
// address: this host, one client. Not reported.
func DialChild() (net.Conn, error) {
	var err error
	for i := 0; i < 50; i++ {
		var c net.Conn
		c, err = net.Dial("tcp", "127.0.0.1:7070")
		if err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// DialLocalhost names the host: not reported.
func DialLocalhost() (net.Conn, error) {
	var err error
	for i := 0; i < 50; i++ {
		var c net.Conn
		c, err = net.DialTimeout("tcp", "localhost:7070", time.Second)
		if err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// DialPeer dials another host's address: reported.
func DialPeer() (net.Conn, error) {
	var err error
	for i := 0; i < 50; i++ {
		var c net.Conn
		c, err = net.Dial("tcp", "10.0.0.7:7070")
		if err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return nil, err
}

// DialV6 dials the IPv6 loopback address: not reported.
func DialV6() (net.Conn, error) {
	var err error
	for i := 0; i < 50; i++ {
		var c net.Conn
		c, err = net.Dial("tcp", "[::1]:7070")
		if err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// DialPort builds the loopback address with its port: not reported.
func DialPort(port int) (net.Conn, error) {
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	var err error
	for i := 0; i < 50; i++ {
		var c net.Conn
		c, err = net.Dial("tcp", addr)
		if err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// DialJoined joins the loopback host and a port: not reported.
func DialJoined(port string) (net.Conn, error) {
	var err error
	for i := 0; i < 50; i++ {
		var c net.Conn
		c, err = net.Dial("tcp", net.JoinHostPort("::1", port))
		if err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// DialHostPort joins a host it is given with the port: reported.
func DialHostPort(host, port string) (net.Conn, error) {
	addr := net.JoinHostPort(host, port)
	var err error
	for i := 0; i < 50; i++ {
		var c net.Conn
		c, err = net.Dial("tcp", addr)
		if err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return nil, err
}
