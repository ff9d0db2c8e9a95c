package failover

import (
	"context"
	"errors"
	"net"
	"time"
)

// dialFirst tries each address once, dropping it from the list when it
// fails: every pass dials the next host. A fail-over, not a retry.
func dialFirst(ctx context.Context, addrs []string) (net.Conn, error) {
	var d net.Dialer
	for len(addrs) > 0 {
		c, err := d.DialContext(ctx, "tcp", addrs[0])
		if err == nil {
			return c, nil
		}
		addrs = addrs[1:]
	}
	return nil, errors.New("no address answered")
}

// The near miss: the list is re-sliced from its start, so every pass
// dials the same first host again, without end.
func dialAgain(ctx context.Context, addrs []string) (net.Conn, error) {
	var d net.Dialer
	for len(addrs) > 0 { // want `retry loop has no bound`
		c, err := d.DialContext(ctx, "tcp", addrs[0])
		if err == nil {
			return c, nil
		}
		addrs = addrs[0:]
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return nil, errors.New("no address answered")
}
