package detach

import (
	"context"
	"net"
	"net/http"
)

// A login helper serves its own callback on this host, stops that server
// once the code arrived and then trades the code under the caller's
// context.
func awaitCode(ctx context.Context, codes <-chan string, trade func(context.Context, string) (string, error)) (string, error) {
	srv := &http.Server{Addr: "127.0.0.1:0"}
	go srv.ListenAndServe()
	code := <-codes
	// The process's own server: its shutdown waits only for its own
	// handlers, and is not cut short by the caller.
	if err := srv.Shutdown(context.Background()); err != nil {
		return "", err
	}
	return trade(ctx, code)
}

// flusher sends what it buffered to a collector when it shuts down.
type flusher struct{ c *http.Client }

func (f *flusher) Shutdown(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://collector.internal/flush", nil)
	if err != nil {
		return err
	}
	resp, err := f.c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The near miss: a Shutdown of the package that sends over the network
// is no server of this process's own.
func finish(ctx context.Context, f *flusher) error {
	return f.Shutdown(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}

// Binding a listener on this host: the context bounds only resolving
// the address.
func listen(ctx context.Context, addr string, serve func(context.Context, net.Listener) error) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(context.TODO(), "tcp", addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	return serve(ctx, ln)
}

// The near miss: dialing out reaches another host.
func dialOut(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(context.TODO(), "tcp", addr) // want `context.TODO\(\) drops the deadline and cancellation of ctx`
}
