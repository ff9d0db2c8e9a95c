package events

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
)

// handshake reads the hello a peer must send first, and closes the
// connection.
func handshake(conn net.Conn, expect []byte) error {
	defer conn.Close()
	got, err := io.ReadAll(io.LimitReader(conn, 32))
	if err != nil {
		return err
	}
	if !bytes.Equal(got, expect) {
		return fmt.Errorf("wrong hello: %x", got)
	}
	return nil
}

// waitForChild takes connections until one greets it as expected: a peer
// that fails the handshake is followed by the next peer's connection, no
// resend. Not reported.
func waitForChild(ln net.Listener, expect []byte, done chan struct{}) {
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				if !errors.Is(err, net.ErrClosed) {
					log.Println(err)
				}
				break
			}
			err = handshake(conn, expect)
			if err == nil {
				close(done)
				break
			}
			log.Println(err)
		}
	}()
}

// relay hands out connections a remote broker relays: it has an Accept
// of the listener's signature, but is no net.Listener (no Addr, no
// Close), and each call asks the broker.
type relay interface {
	Accept() (net.Conn, error)
}

// The near miss: asking the broker again at once after it failed is a
// resend.
func takeRelayed(r relay) error {
	for i := 0; i < 5; i++ { // want `retry loop tries again at once after a failure`
		conn, err := r.Accept()
		if err == nil {
			return handshake(conn, []byte("hello"))
		}
	}
	return errors.New("no relay")
}
