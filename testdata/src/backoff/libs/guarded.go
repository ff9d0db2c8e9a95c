package libs

import (
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

type options struct {
	Backoff retryablehttp.Backoff // optional: the client's own otherwise
}

// The caller's backoff replaces the client's only when it gives one: a
// caller that gives none leaves DefaultBackoff, which has no jitter.
func newGuarded(o options) *retryablehttp.Client {
	c := retryablehttp.NewClient() // want `retryablehttp.Client.Get waits without jitter \(a client left on DefaultBackoff when o.Backoff is nil\)`
	if o.Backoff != nil {
		c.Backoff = o.Backoff
	}
	c.RetryMax = 4
	return c
}

func getGuarded(o options, url string) (*http.Response, error) { return newGuarded(o).Get(url) }

// The near misses: the caller's backoff, whatever it is, and one that
// falls back to a jittered backoff when the caller gives none.
func getGiven(o options, url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.Backoff = o.Backoff
	return c.Get(url)
}

func getFallback(o options, url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	if o.Backoff != nil {
		c.Backoff = o.Backoff
	} else {
		c.Backoff = retryablehttp.LinearJitterBackoff
	}
	return c.Get(url)
}
