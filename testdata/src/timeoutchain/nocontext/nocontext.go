// Package nocontext: helpers given no context that do their work under
// none, called where a context is in scope.
package nocontext

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"time"

	"timeoutchain/nocontext/issuer"
)

// fetchStaple asks the responder with no context.
func fetchStaple(url string) ([]byte, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// staple runs under the handshake's context, which never reaches the
// request fetchStaple makes: reported at the call.
func staple(ctx context.Context, url string) ([]byte, error) {
	return fetchStaple(url) // want `fetchStaple is given no context, and http.Get at nocontext.go:18 takes none, so the deadline and cancellation of ctx never reach it`
}

// load hands on to fetchStaple: it has the fact too, through it.
func load(url string) ([]byte, error) {
	b, err := fetchStaple(url)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// refresh is reported once, at the call it makes, naming the request
// that takes no context.
func refresh(ctx context.Context, url string) error {
	_, err := load(url) // want `load is given no context, and http.Get at nocontext.go:18 takes none`
	return err
}

// chain gets the issuer's certificate through another package's helper.
func chain(ctx context.Context, url string) (string, error) {
	b, err := issuer.Fetch(url) // want `issuer.Fetch is given no context, and client.Get at issuer.go:14 takes none`
	if err != nil {
		return "", err
	}
	return issuer.Parse(b)
}

// Near misses.

// fetchWith takes the caller's context: nothing is dropped.
func fetchWith(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

func stapleWith(ctx context.Context, url string) error {
	resp, err := fetchWith(ctx, url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// warm fetches in a goroutine of its own, work meant to outlive the call.
func warm(url string) {
	go http.Get(url)
}

func prime(ctx context.Context, url string) {
	warm(url)
}

// probe carries the context it runs under: its methods are given one.
type probe struct {
	ctx context.Context
	url string
}

func (p *probe) run() (*http.Response, error) {
	return http.Get(p.url)
}

func check(ctx context.Context, url string) error {
	p := &probe{ctx: ctx, url: url}
	_, err := p.run()
	return err
}

// dialBounded dials with a bound of its own, which the code chose.
func dialBounded(addr string) (net.Conn, error) {
	return net.DialTimeout("tcp", addr, 5*time.Second)
}

func connect(ctx context.Context, addr string) (net.Conn, error) {
	return dialBounded(addr)
}

// newRequest makes a request its caller re-homes.
func newRequest(url string) (*http.Request, error) {
	return http.NewRequest(http.MethodGet, url, nil)
}

func send(ctx context.Context, url string) (*http.Response, error) {
	req, err := newRequest(url)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req.WithContext(ctx))
}

// atStart has no context to hand on.
func atStart(url string) ([]byte, error) {
	return fetchStaple(url)
}

// Request is a request of the code's own type.
type Request http.Request

// newOwnRequest makes one with no context, which its caller re-homes.
func newOwnRequest(url string) (*Request, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return (*Request)(req), nil
}

func sendOwn(ctx context.Context, url string) (*http.Response, error) {
	req, err := newOwnRequest(url)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do((*http.Request)(req).WithContext(ctx))
}

// secure's handshake is bounded by its connection's deadline, which the
// caller sets.
func secure(conn net.Conn, cfg *tls.Config) (*tls.Conn, error) {
	tc := tls.Client(conn, cfg)
	if err := tc.Handshake(); err != nil {
		return nil, err
	}
	return tc, nil
}

func upgrade(ctx context.Context, conn net.Conn, cfg *tls.Config) (*tls.Conn, error) {
	if dl, ok := ctx.Deadline(); ok {
		if err := conn.SetDeadline(dl); err != nil {
			return nil, err
		}
	}
	return secure(conn, cfg)
}

// poll makes a request with no context and sends it.
func poll(url string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

func watch(ctx context.Context, url string) error {
	resp, err := poll(url) // want `poll is given no context, and http.NewRequest at nocontext.go:\d+ takes none`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// signed makes a request only to sign it: nothing is sent.
func signed(url string) (string, error) {
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		return "", err
	}
	return sign(req), nil
}

func sign(req *http.Request) string { return req.Method + " " + req.URL.String() }

func authorize(ctx context.Context, url string) (string, error) {
	return signed(url)
}

// readURL sends with the client it is given, which its caller may have
// bounded with a Timeout: not counted.
func readURL(c *http.Client, url string) (*http.Response, error) {
	return c.Get(url)
}

func listLogs(ctx context.Context, url string) error {
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := readURL(c, url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// readDefault sends with the default client, which has no Timeout:
// reported where it is called under a context.
func readDefault(url string) (*http.Response, error) {
	return http.DefaultClient.Get(url)
}

func listDefault(ctx context.Context, url string) error {
	resp, err := readDefault(url) // want `readDefault is given no context, and http.DefaultClient.Get at nocontext.go:\d+ takes none`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
