package recursion

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// lookup retries by itself.
func lookup(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

// A recursion whose every attempt reaches a retry: the nesting is known
// where a caller gives the count.
func resolve(ctx context.Context, left int) error {
	err := lookup(ctx)
	if err != nil && left > 0 {
		time.Sleep(jittered(time.Second))
		return resolve(ctx, left-1)
	}
	return err
}

func resolveTwice(ctx context.Context) error {
	return resolve(ctx, 2) // want `nested retry: recursive retry makes 3 attempts \(the count given here\), each reaching lookup, which retries: retry loop \(3 attempts\) at outer.go:\d+: up to 9 downstream calls per request`
}

// Near miss: a count that gives one attempt; the body's retry alone.
func resolveOnce(ctx context.Context) error {
	return resolve(ctx, 0)
}

var errStale = errors.New("stale")

// Near miss: the recursion goes round only on an error it picked out (a
// stale cache, refreshed and asked again).
func refresh(ctx context.Context, left int) error {
	err := lookup(ctx)
	if errors.Is(err, errStale) && left > 0 {
		return refresh(ctx, left-1)
	}
	return err
}

func refreshTwice(ctx context.Context) error {
	return refresh(ctx, 2)
}

type client struct{ hc *http.Client }

func (c *client) once(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return c.hc.Do(req)
}

// The recursion's bound tested in the case of a switch on the status:
// bounded, and its count is known at the call.
func (c *client) get(ctx context.Context, url string, retries int) (*http.Response, error) {
	resp, err := c.once(ctx, url)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusBadGateway, http.StatusServiceUnavailable:
		resp.Body.Close()
		if retries <= 0 {
			return nil, errStale
		}
		time.Sleep(jittered(time.Second))
		return c.get(ctx, url, retries-1)
	}
	return resp, nil
}

func (c *client) sync(ctx context.Context, url string) error {
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching \(\*client\).get, which retries: recursive retry \(4 attempts\) at outer.go:\d+: up to 12 downstream calls per request`
		resp, err := c.get(ctx, url, 3)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(jittered(time.Second))
	}
	return errStale
}

// The bound tested before the attempt: resolveFirst(ctx, n) makes n
// attempts, and a count of 1 makes one.
func resolveFirst(ctx context.Context, left int) error {
	if left <= 0 {
		return errStale
	}
	err := lookup(ctx)
	if err == nil {
		return nil
	}
	time.Sleep(jittered(time.Second))
	return resolveFirst(ctx, left-1)
}

func resolveFirstTwice(ctx context.Context) error {
	return resolveFirst(ctx, 2) // want `nested retry: recursive retry makes 2 attempts \(the count given here\)`
}

func resolveFirstOnce(ctx context.Context) error {
	return resolveFirst(ctx, 1)
}
