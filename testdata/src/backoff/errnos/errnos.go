// Package errnos retries on system error numbers. A refused or reset
// connection is a failure every client of a dependency that went down
// meets: the loop is a retry, and a fixed delay is reported. An
// interrupted system call (EINTR) is no failure: the loop that makes it
// again is no retry (near miss).
package errnos

import (
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"
)

// Connect redials while the server refuses: reported.
func Connect(addr string) (net.Conn, error) {
	var err error
	for i := 0; i < 5; i++ {
		var c net.Conn
		c, err = net.Dial("tcp", addr)
		if err == nil {
			return c, nil
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			return nil, err
		}
		time.Sleep(200 * time.Millisecond) // want `retry delay has no jitter`
	}
	return nil, err
}

// Reset resends on a reset connection, compared with ==: reported.
func Reset(send func() error) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = send(); err != syscall.ECONNRESET {
			return err
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return err
}

// Interrupted makes the call again after EINTR: no retry, not reported.
func Interrupted(fd int, buf []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, buf)
		if err == syscall.EINTR {
			time.Sleep(time.Millisecond)
			continue
		}
		return n, err
	}
}

// FindOpen dials the next port after a refusal: each pass a new address,
// a scan from the port it was given, no retry. Not reported.
func FindOpen(host string, from, to int) (net.Conn, error) {
	for port := from; port <= to; port++ {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("%s:%d", host, port), time.Second)
		if err == nil {
			return c, nil
		}
		if errors.Is(err, syscall.ECONNREFUSED) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		return nil, err
	}
	return nil, errors.New("no open port")
}
