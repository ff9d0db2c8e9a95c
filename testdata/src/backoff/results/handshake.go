package results

import (
	"errors"
	"net"
	"time"
)

// greet writes a greeting on a connection just opened.
func greet(c net.Conn) error {
	_, err := c.Write([]byte("HELLO\n"))
	return err
}

// A connection is opened, then greeted: the connection is the dial's
// result, used once the dial succeeded. The failure kept from an earlier
// pass (lastErr = err) holds the connection of that pass, not of this
// one: using this one makes no progress with a failed pass's data.
func dialAndGreet(addr string) (net.Conn, error) {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			lastErr = err
			time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
			continue
		}
		if err := greet(c); err != nil {
			lastErr = err
			c.Close()
			time.Sleep(100 * time.Millisecond) // the same loop's delay: one finding
			continue
		}
		return c, nil
	}
	return nil, lastErr
}

// Every seed is tried in turn, then the whole round again after a pause:
// the round is the attempt, the pause its delay.
func discoverSeeds(seeds []string) (net.Conn, error) {
	lastErr := errors.New("no seeds")
	for round := 0; round < 10; round++ {
		for _, seed := range seeds {
			c, err := net.Dial("tcp", seed)
			if err != nil {
				lastErr = err
				continue
			}
			if err := greet(c); err != nil {
				lastErr = err
				c.Close()
				continue
			}
			return c, nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return nil, lastErr
}

// Near miss (readConn): what a failed pass read is kept (appended) before its error
// is looked at, and the next pass reads on: progress, not a retry.
func readConn(c net.Conn) ([]byte, error) {
	var got []byte
	var lastErr error
	buf := make([]byte, 512)
	for i := 0; i < 5; i++ {
		n, err := c.Read(buf)
		lastErr = err
		got = append(got, buf[:n]...)
		if err == nil {
			return got, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return got, lastErr
}
