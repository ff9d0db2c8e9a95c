package verdicts

import (
	"net"
	"time"
)

type conn struct{}

func (conn) write(b []byte) error { return nil }

// A type switch on the error: its nil case is the success, its other
// cases failures.
func (c conn) send(b []byte) error {
	var err error
	for i := 0; i < 3; i++ {
		err = c.write(b)
		switch err.(type) {
		case nil:
			return nil
		case *net.OpError:
			// the connection failed: try again
		default:
			return err
		}
		time.Sleep(500 * time.Millisecond) // want `retry delay has no jitter`
	}
	return err
}

// Near miss: the loop goes round on success (a stream of writes) and
// leaves on any error.
func (c conn) stream(chunks [][]byte) error {
	for _, b := range chunks {
		err := c.write(b)
		switch err.(type) {
		case nil:
			time.Sleep(10 * time.Millisecond)
			continue
		default:
			return err
		}
	}
	return nil
}
