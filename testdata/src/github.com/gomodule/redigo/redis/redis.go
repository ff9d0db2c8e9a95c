// Package redis is a stub of github.com/gomodule/redigo/redis for
// resilint's analyzer fixtures: connections that run commands named by a
// string, the reply helpers, and scripts. Bodies do nothing.
package redis

import "errors"

// ErrNil is returned by the reply helpers for a nil reply.
var ErrNil = errors.New("redigo: nil returned")

// Conn is a connection to a Redis server.
type Conn interface {
	Close() error
	Err() error
	Do(commandName string, args ...interface{}) (reply interface{}, err error)
	Send(commandName string, args ...interface{}) error
	Flush() error
	Receive() (reply interface{}, err error)
}

// Dial connects to the Redis server at address.
func Dial(network, address string) (Conn, error) { return nil, nil }

// Pool is a pool of connections.
type Pool struct {
	Dial func() (Conn, error)
}

// Get returns a connection from the pool.
func (p *Pool) Get() Conn { return nil }

// Int converts a reply to an int.
func Int(reply interface{}, err error) (int, error) { return 0, err }

// Int64 converts a reply to an int64.
func Int64(reply interface{}, err error) (int64, error) { return 0, err }

// String converts a reply to a string.
func String(reply interface{}, err error) (string, error) { return "", err }

// Script is a Lua script with keyCount keys.
type Script struct {
	keyCount int
	src      string
}

// NewScript returns a script.
func NewScript(keyCount int, src string) *Script { return &Script{keyCount, src} }

// Do runs the script (EVALSHA, then EVAL on NOSCRIPT).
func (s *Script) Do(c Conn, keysAndArgs ...interface{}) (interface{}, error) { return nil, nil }
