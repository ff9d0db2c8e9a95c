// Package failover sends each attempt to the next node of a cluster: no
// retry of one request to one server, but its wait still stands between
// a failure and the next call, and it must end when the caller gives
// up. A wait that watches the context, or a loop in a function with no
// context, is not reported.
package failover

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"
)

type client struct {
	hc    *http.Client
	mu    sync.Mutex
	nodes []string
	idx   int
}

func (c *client) next() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.idx = (c.idx + 1) % len(c.nodes)
	return c.nodes[c.idx]
}

// Get sleeps with time.Sleep between nodes: reported.
func (c *client) Get(ctx context.Context, path string) (*http.Response, error) {
	for n := 0; n < 3; n++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.next()+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Duration(n+1) * 100 * time.Millisecond) // want `the retry loop waits without watching ctx`
	}
	return nil, errors.New("no node answered")
}

// GetMirrors tries each mirror in turn and waits without the context:
// reported.
func GetMirrors(ctx context.Context, hc *http.Client, mirrors []string) (*http.Response, error) {
	for i := 0; i < len(mirrors); i++ {
		m := mirrors[i]
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, m, nil)
		if err != nil {
			return nil, err
		}
		resp, err := hc.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	return nil, errors.New("no mirror answered")
}

// GetWatching waits in a select on ctx.Done(): not reported.
func (c *client) GetWatching(ctx context.Context, path string) (*http.Response, error) {
	for n := 0; n < 3; n++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.next()+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil, errors.New("no node answered")
}

// Probe has no context to watch: not reported.
func (c *client) Probe(path string) error {
	for n := 0; n < 3; n++ {
		resp, err := c.hc.Get(c.next() + path)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("no node answered")
}
