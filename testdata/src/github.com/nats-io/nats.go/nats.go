// Package nats is a stub of the NATS client's errors that the catalog
// names: written here for the fixtures, it has only the declarations
// they use.
package nats

import "errors"

var (
	ErrNoResponders     = errors.New("nats: no responders available for request")
	ErrTimeout          = errors.New("nats: timeout")
	ErrNoServers        = errors.New("nats: no servers available for connection")
	ErrConnectionClosed = errors.New("nats: connection closed")
)

// Conn is a connection to a server.
type Conn struct{}

// Request sends data on subj and waits for one reply.
func (c *Conn) Request(subj string, data []byte) ([]byte, error) { return nil, ErrNoResponders }
