package ctxless

import (
	"context"
	"crypto/tls"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// rehomed makes the request with NewRequest and gives it the context
// before it is sent. Not reported.
func rehomed(ctx context.Context, c *http.Client, url string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req = req.WithContext(ctx)
	return c.Do(req)
}

// client sends requests under the context it is given.
type client struct{ hc *http.Client }

func (c *client) send(ctx context.Context, req *http.Request) (*http.Response, error) {
	return c.hc.Do(req.WithContext(ctx))
}

// viaHelper hands the request to a helper together with the context.
// Not reported.
func viaHelper(ctx context.Context, c *client, url string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return c.send(ctx, req)
}

// newRequest builds a request for its caller, who chooses its context.
// Not reported.
func newRequest(ctx context.Context, url string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodPost, url, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Trace", traceOf(ctx))
	return req, nil
}

func traceOf(ctx context.Context) string {
	s, _ := ctx.Value(traceKey{}).(string)
	return s
}

type traceKey struct{}

// rollbackAfterDone runs its cleanup once the caller's context is done:
// not under it. Not reported.
func rollbackAfterDone(ctx context.Context, db *sql.DB, work func(context.Context) error) error {
	err := work(ctx)
	if ctx.Err() != nil {
		db.Exec("ROLLBACK")
	}
	return err
}

// background starts work meant to outlive the caller. Not reported.
func background(ctx context.Context, db *sql.DB) {
	go db.Exec("VACUUM")
	defer db.Exec("ANALYZE")
	_ = traceOf(ctx)
}

// Logger's Log cannot fail: its sibling taking a context only carries
// values to the log. Not reported.
type Logger struct{}

func (Logger) Log(msg string)                             {}
func (Logger) LogContext(ctx context.Context, msg string) {}

func logs(ctx context.Context, l Logger) { l.Log("starting") }

// Fetcher's FetchContext takes options Fetch does not: no sibling.
// Not reported.
type Fetcher struct{}

type Options struct{ Fresh bool }

func (Fetcher) Fetch(k string) error                                        { return nil }
func (Fetcher) FetchContext(ctx context.Context, k string, o Options) error { return nil }

func fetchAll(ctx context.Context, f Fetcher, keys []string) error {
	for _, k := range keys {
		if err := f.Fetch(k); err != nil {
			return err
		}
	}
	return nil
}

// count has no context to pass. Not reported.
func count(db *sql.DB) error {
	_, err := db.Exec("SELECT 1")
	return err
}

// refresh is only ever given context.Background(): there is nothing to
// drop. Not reported.
func refresh(ctx context.Context, db *sql.DB) error {
	_, err := db.Exec("REFRESH MATERIALIZED VIEW totals")
	return err
}

func Refresh(db *sql.DB) error { return refresh(context.Background(), db) }

// driverConn's Prepare is its own implementation; PrepareContext watches
// the context by other means and then calls it. Not reported.
type driverConn struct{ cancel chan struct{} }

func (c *driverConn) Prepare(query string) (string, error) { return query, nil }

func (c *driverConn) PrepareContext(ctx context.Context, query string) (string, error) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			close(c.cancel)
		case <-done:
		}
	}()
	return c.Prepare(query)
}

// Decode's sibling only hands the context to custom decoders; Decode
// does not wrap it. Not reported.
type DecodeOption func()

func Decode(data []byte, v any) error { return nil }

func DecodeContext(ctx context.Context, data []byte, v any, opts ...DecodeOption) error {
	return Decode(data, v)
}

func decodeAll(ctx context.Context, docs [][]byte, v any) error {
	for _, d := range docs {
		if err := Decode(d, v); err != nil {
			return err
		}
	}
	return nil
}

// List wraps ListWithContext, but is handed the context in an option.
// Not reported.
type listOpts struct{ ctx context.Context }

type ListOption func(*listOpts)

func WithCtx(ctx context.Context) ListOption { return func(o *listOpts) { o.ctx = ctx } }

func List(repo string, opts ...ListOption) ([]string, error) {
	return ListWithContext(context.Background(), repo, opts...)
}

func ListWithContext(ctx context.Context, repo string, opts ...ListOption) ([]string, error) {
	o := listOpts{ctx: ctx}
	for _, f := range opts {
		f(&o)
	}
	return nil, o.ctx.Err()
}

func tags(ctx context.Context, repo string) ([]string, error) {
	return List(repo, WithCtx(ctx))
}

// Req is a request that carries a context and can be given another.
type Req struct{ ctx context.Context }

func (r *Req) WithContext(ctx context.Context) *Req { return &Req{ctx: ctx} }

func NewReq(url string) (*Req, error) { return NewReqWithContext(context.Background(), url) }

func NewReqWithContext(ctx context.Context, url string) (*Req, error) { return &Req{ctx: ctx}, nil }

func doReq(r *Req) error { return r.ctx.Err() }

// reqRehomed makes the request with the wrapper and re-homes it. Not
// reported.
func reqRehomed(ctx context.Context, url string) error {
	r, err := NewReq(url)
	if err != nil {
		return err
	}
	return doReq(r.WithContext(ctx))
}

// dialBounded dials with a timeout of its own, as a Background given a
// timeout has one: the code chose that bound. Not reported.
func dialBounded(ctx context.Context, addr string, cfg *tls.Config, secure bool) (net.Conn, error) {
	if secure {
		return tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr, cfg)
	}
	if addr == "" {
		d := &net.Dialer{Deadline: time.Now().Add(time.Second)}
		return d.Dial("tcp", "localhost:0")
	}
	return net.DialTimeout("tcp", addr, 5*time.Second)
}

// dialDaemon dials the local daemon's Unix socket, which answers or
// refuses at once. Not reported.
func dialDaemon(ctx context.Context, proto, addr string) (net.Conn, error) {
	switch proto {
	case "unix":
		return net.Dial(proto, addr)
	case "tcp":
		var d net.Dialer
		return d.DialContext(ctx, proto, addr)
	}
	return net.Dial("unix", "/run/daemon.sock")
}

// framed carries the TLS handshake inside frames of the code's own
// protocol over a connection whose reads it bounds itself. Not
// reported: the handshake runs over that transport.
type framed struct {
	conn net.Conn
	wait time.Duration
}

func (f *framed) Read(p []byte) (int, error) {
	f.conn.SetReadDeadline(time.Now().Add(f.wait))
	return f.conn.Read(p)
}

func (f *framed) Write(p []byte) (int, error)        { return f.conn.Write(p) }
func (f *framed) Close() error                       { return f.conn.Close() }
func (f *framed) LocalAddr() net.Addr                { return f.conn.LocalAddr() }
func (f *framed) RemoteAddr() net.Addr               { return f.conn.RemoteAddr() }
func (f *framed) SetDeadline(t time.Time) error      { return f.conn.SetDeadline(t) }
func (f *framed) SetReadDeadline(t time.Time) error  { return f.conn.SetReadDeadline(t) }
func (f *framed) SetWriteDeadline(t time.Time) error { return f.conn.SetWriteDeadline(t) }

func prelogin(ctx context.Context, conn net.Conn, cfg *tls.Config) (*tls.Conn, error) {
	f := framed{conn: conn, wait: 5 * time.Second}
	tc := tls.Client(&f, cfg)
	return tc, tc.Handshake()
}

// secureBy gives the dialed connection a deadline before the handshake.
// Not reported: the handshake cannot outlive it.
func secureBy(ctx context.Context, d *net.Dialer, addr string, cfg *tls.Config) (net.Conn, error) {
	raw, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	raw.SetDeadline(time.Now().Add(10 * time.Second))
	tc := tls.Client(raw, cfg)
	if err := tc.Handshake(); err != nil {
		raw.Close()
		return nil, err
	}
	raw.SetDeadline(time.Time{})
	return tc, nil
}

// dialPublished dials a port published on the loopback interface: it is
// answered or refused at once. Not reported.
func dialPublished(ctx context.Context, port int) (net.Conn, error) {
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	return net.Dial("tcp", addr)
}
