// Package websocket is a stub of github.com/gorilla/websocket for tests:
// an upgrader that takes the HTTP connection over.
package websocket

import (
	"bufio"
	"errors"
	"net"
	"net/http"
)

// Conn is a WebSocket connection.
type Conn struct {
	conn net.Conn
	br   *bufio.Reader
}

// ReadMessage reads the next message.
func (c *Conn) ReadMessage() (int, []byte, error) {
	line, err := c.br.ReadBytes('\n')
	return 1, line, err
}

// Close closes the connection.
func (c *Conn) Close() error { return c.conn.Close() }

// Upgrader upgrades HTTP connections.
type Upgrader struct{}

// Upgrade takes the connection over.
func (u *Upgrader) Upgrade(w http.ResponseWriter, r *http.Request, h http.Header) (*Conn, error) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return nil, errors.New("websocket: response does not implement http.Hijacker")
	}
	return u.take(hj)
}

func (u *Upgrader) take(hj http.Hijacker) (*Conn, error) {
	c, rw, err := hj.Hijack()
	if err != nil {
		return nil, err
	}
	return &Conn{conn: c, br: rw.Reader}, nil
}
