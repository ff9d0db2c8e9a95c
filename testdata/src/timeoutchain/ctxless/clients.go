package ctxless

import (
	"context"
	"net/http"
	"time"
)

// fetchBounded sends with a client whose Timeout the code chose: the
// request has a bound of its own, as a dial given a timeout has. Not
// reported.
func fetchBounded(ctx context.Context, url string) (*http.Response, error) {
	c := &http.Client{Timeout: 10 * time.Second}
	return c.Get(url)
}

// fetchUnbounded's client says Timeout 0, no bound: reported.
func fetchUnbounded(ctx context.Context, url string) (*http.Response, error) {
	c := &http.Client{Timeout: 0}
	return c.Get(url) // want `c.Get takes no context, so the deadline and cancellation of ctx never reach it`
}

// fetchEither may send with the default client, which has no Timeout:
// reported.
func fetchEither(ctx context.Context, url string, proxied bool) (*http.Response, error) {
	c := http.DefaultClient
	if proxied {
		c = &http.Client{Timeout: 30 * time.Second}
	}
	return c.Get(url) // want `c.Get takes no context, so the deadline and cancellation of ctx never reach it`
}

// fetchWith sends with a client it is given, whose Timeout it cannot
// see: reported.
func fetchWith(ctx context.Context, c *http.Client, url string) (*http.Response, error) {
	return c.Get(url) // want `c.Get takes no context, so the deadline and cancellation of ctx never reach it`
}
