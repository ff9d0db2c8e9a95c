// Package carriers: context.Background() put into a request. Dropped when
// the request goes on to be sent; not when it is only dumped to a log or
// matched against a router.
package carriers

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"

	"github.com/gorilla/mux"
)

func cloneWith(req *http.Request, ctx context.Context) (*http.Request, error) {
	c := req.Clone(ctx)
	if req.GetBody != nil {
		b, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		c.Body = b
	}
	return c, nil
}

type debugTransport struct {
	next http.RoundTripper
	out  io.Writer
}

// A copy with a context of its own, redacted and dumped: nothing is sent
// under Background.
func (t *debugTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c, err := cloneWith(req, context.Background())
	if err != nil {
		return nil, err
	}
	c.Header.Set("Authorization", "redacted")
	b, err := httputil.DumpRequestOut(c, true)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(t.out, "%s\n", b)
	return t.next.RoundTrip(req)
}

// The same, cloned in place.
func dump(ctx context.Context, req *http.Request, out io.Writer) error {
	c := req.Clone(context.Background())
	c.Header.Del("Authorization")
	b, err := httputil.DumpRequest(c, false)
	if err != nil {
		return err
	}
	_, err = out.Write(b)
	return err
}

// The clone is sent: the caller's cancellation is dropped.
func send(ctx context.Context, cl *http.Client, req *http.Request) (*http.Response, error) {
	c := req.Clone(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	c.Header.Set("X-Retry", "1")
	return cl.Do(c)
}

// Through the package's carrier, then sent.
func sendCopy(ctx context.Context, cl *http.Client, req *http.Request) (*http.Response, error) {
	c, err := cloneWith(req, context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	if err != nil {
		return nil, err
	}
	return cl.Do(c)
}

// Dumped, and then sent under another name.
func dumpThenSend(ctx context.Context, cl *http.Client, req *http.Request) (*http.Response, error) {
	c := req.WithContext(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	if _, err := httputil.DumpRequestOut(c, false); err != nil {
		return nil, err
	}
	out := c
	return cl.Do(out)
}

// Made for the caller, who sends it.
func newRequest(ctx context.Context, url string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	if err != nil {
		return nil, err
	}
	return req, nil
}

// A router asked, in memory, whether the path with a trailing slash has
// a route: the clone is read, never sent.
func routesWithSlash(ctx context.Context, mx *http.ServeMux, req *http.Request) bool {
	probe := req.Clone(context.Background())
	probe.URL.Path += "/"
	_, pattern := mx.Handler(probe)
	return pattern != ""
}

func matchesWithSlash(ctx context.Context, r *mux.Router, req *http.Request) bool {
	probe := req.Clone(context.Background())
	probe.URL.Path += "/"
	return r.Match(probe, &mux.RouteMatch{})
}

// Near miss: the clone is served, its handler running under Background.
func serveWithSlash(ctx context.Context, r *mux.Router, w http.ResponseWriter, req *http.Request) {
	probe := req.Clone(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	probe.URL.Path += "/"
	r.ServeHTTP(w, probe)
}
