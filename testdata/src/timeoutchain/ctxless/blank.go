package ctxless

import (
	"context"
	"crypto/tls"
	"database/sql"
	"net"
	"net/http"
	"time"
)

// pinned dials TLS for a transport that hands it the request's context,
// left unnamed: the connect ignores the request's deadline.
func pinned(t *http.Transport, cfg *tls.Config) {
	t.DialTLSContext = func(_ context.Context, network, addr string) (net.Conn, error) {
		return tls.Dial(network, addr, cfg) // want `tls.Dial takes no context, so the deadline and cancellation of the context this function is given \(its parameter is left unnamed\) never reach it: .*after naming that parameter ctx`
	}
}

type store struct{ db *sql.DB }

// Count implements a contract that gives it a context, unnamed: its query
// runs under none. No automatic fix (the parameter needs a name first).
func (s *store) Count(context.Context) (int, error) {
	var n int
	err := s.db.QueryRow("SELECT count(*) FROM jobs").Scan(&n) // want `s.db.QueryRow takes no context, so the deadline and cancellation of the context this function is given .*use s.db.QueryRowContext\(ctx, ...\), after naming that parameter ctx`
	return n, err
}

// Near misses: a dial with a bound of its own; local work only.
func bounded(t *http.Transport) {
	t.DialContext = func(_ context.Context, network, addr string) (net.Conn, error) {
		return net.DialTimeout(network, addr, 3*time.Second)
	}
}

func (s *store) Name(context.Context) string { return "jobs" }
