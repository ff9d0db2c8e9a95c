package reads

import (
	"errors"
	"net"
	"time"
)

var errSelfConnect = errors.New("connected to itself")

func sameAddr(a, b net.Addr) bool { return a.String() == b.String() }

// redial refuses a connection that reached its own listener: the result
// is used only behind the test that the dial succeeded, as a success's
// is, and the path then fails; no progress on a partial result. A retry.
func redial(addr string) (net.Conn, error) {
	for { // want `retry loop has no bound`
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil && sameAddr(conn.RemoteAddr(), conn.LocalAddr()) {
			conn.Close()
			err = errSelfConnect
		}
		if err == nil {
			return conn, nil
		}
		time.Sleep(500 * time.Millisecond) // want `retry delay has no jitter`
	}
}

// The near miss: the result is used whatever the dial's outcome (what a
// partial read does), which the model takes for progress, and says
// nothing.
func redialAny(addr string) (net.Conn, error) {
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if conn != nil && sameAddr(conn.RemoteAddr(), conn.LocalAddr()) {
			conn.Close()
			err = errSelfConnect
		}
		if err == nil {
			return conn, nil
		}
		time.Sleep(500 * time.Millisecond)
	}
}
