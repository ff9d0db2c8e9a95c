// Package ctxless holds calls that take no context where the caller's
// is in scope.
package ctxless

import (
	"context"
	"crypto/tls"
	"database/sql"
	"net"
	"net/http"
)

// fetch makes its request with http.NewRequest: it carries
// context.Background(), and the client sends it as it is.
func fetch(ctx context.Context, c *http.Client, url string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil) // want `http.NewRequest takes no context, so the deadline and cancellation of ctx never reach it`
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	return c.Do(req)
}

// dialSecure dials with tls.Dial, which has no context (nor a timeout).
func dialSecure(ctx context.Context, addr string, cfg *tls.Config) (net.Conn, error) {
	return tls.Dial("tcp", addr, cfg) // want `tls.Dial takes no context, so the deadline and cancellation of ctx never reach it: the work keeps running after the caller has given up; use a tls.Dialer's DialContext`
}

// dialForever dials with DialTimeout given no timeout.
func dialForever(ctx context.Context, addr string) (net.Conn, error) {
	return net.DialTimeout("tcp", addr, 0) // want `net.DialTimeout takes no context`
}

// dialPlain dials with a Dialer's Dial beside its DialContext: the
// dialer, a parameter, is not known to have a timeout.
func dialPlain(ctx context.Context, d *net.Dialer, addr string) (net.Conn, error) {
	return d.Dial("tcp", addr) // want `d.Dial takes no context`
}

// purge runs its statement without the context database/sql would take.
func purge(ctx context.Context, db *sql.DB, before int64) error {
	_, err := db.Exec("DELETE FROM events WHERE at < $1", before) // want `db.Exec takes no context`
	return err
}

// Store has a method with a sibling that takes a context.
type Store struct{ db *sql.DB }

// Put stores v under the background context.
func (s *Store) Put(k, v string) error { return s.PutContext(context.Background(), k, v) }

// PutContext stores v.
func (s *Store) PutContext(ctx context.Context, k, v string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO kv VALUES ($1, $2)", k, v)
	return err
}

// save calls the variant without the context it was given.
func save(ctx context.Context, s *Store, k, v string) error {
	return s.Put(k, v) // want `s.Put takes no context`
}

// status fetches with http.Get in a handler: the request's context is
// dropped.
func status(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("http://inventory.internal/status") // want `http.Get takes no context, so the deadline and cancellation of r.Context\(\) never reach it`
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	resp.Body.Close()
}

// reqAsIs makes the request with the package's wrapper and sends it as
// it is.
func reqAsIs(ctx context.Context, url string) error {
	r, err := NewReq(url) // want `NewReq takes no context`
	if err != nil {
		return err
	}
	return doReq(r)
}

// lookup runs its query under the background context.
func lookup(ctx context.Context, db *sql.DB, id int) (string, error) {
	var name string
	err := db.QueryRow("SELECT name FROM users WHERE id = $1", id).Scan(&name) // want `db.QueryRow takes no context`
	return name, err
}

// dialProto dials TCP in the default case: it may reach anywhere.
func dialProto(ctx context.Context, proto, addr string) (net.Conn, error) {
	switch proto {
	case "unix":
		return net.Dial(proto, addr)
	default:
		return net.Dial(proto, addr) // want `net.Dial takes no context`
	}
}

// secure runs the TLS handshake over a connection it has just dialed,
// with no deadline on it: a server that accepts and never answers holds
// the handshake forever.
func secure(ctx context.Context, d *net.Dialer, addr string, cfg *tls.Config) (net.Conn, error) {
	raw, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	tc := tls.Client(raw, cfg)
	if err := tc.Handshake(); err != nil { // want `tc.Handshake takes no context`
		raw.Close()
		return nil, err
	}
	return tc, nil
}

// dialJoined dials a host it is given, joined with its port: anyone's.
func dialJoined(ctx context.Context, host, port string) (net.Conn, error) {
	addr := net.JoinHostPort(host, port)
	return net.Dial("tcp", addr) // want `net.Dial takes no context`
}
