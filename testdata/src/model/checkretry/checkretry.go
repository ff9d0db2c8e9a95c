// Package checkretry: the attempts of go-retryablehttp clients by their
// CheckRetry. A predicate whose every return gives false (never true) makes
// the client send once: no retry, no fact. One that may return true leaves
// the client's RetryMax in charge; one the model cannot read (a parameter)
// too.
package checkretry

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

const stop = false

// A package variable may be written anywhere: not a constant.
var retryAll = false

func noRetry(context.Context, *http.Response, error) (bool, error) { return false, nil } // want noRetry:"never true"

func stopped(ctx context.Context, resp *http.Response, err error) (bool, error) { // want stopped:"never true"
	if err != nil {
		return stop, err
	}
	return stop, nil
}

func delegates(ctx context.Context, resp *http.Response, err error) (bool, error) { // want delegates:"never true"
	return stopped(ctx, resp, err)
}

type policy struct{}

func (policy) check(context.Context, *http.Response, error) (bool, error) { return false, nil } // want check:"never true"

// Closures' returns are their own.
func outer(ctx context.Context, resp *http.Response, err error) (bool, error) {
	f := func() bool { return false }
	return f(), nil
}

// A bare return with named results is not followed.
func named(ctx context.Context, resp *http.Response, err error) (retry bool, e error) {
	return
}

func byVariable(context.Context, *http.Response, error) (bool, error) { return retryAll, nil }

func sometimes(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	return resp.StatusCode == http.StatusServiceUnavailable, nil
}

func never(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.CheckRetry = noRetry
	return c.Get(url)
}

func neverMethod(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.CheckRetry = policy{}.check
	return c.Get(url)
}

func neverDelegated(url string) (*http.Response, error) {
	c := &retryablehttp.Client{RetryMax: 2, CheckRetry: delegates}
	return c.Get(url)
}

func neverParam(c *retryablehttp.Client, url string) (*http.Response, error) {
	c.CheckRetry = noRetry
	return c.Get(url)
}

func neverStandard(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(context.Context, *http.Response, error) (bool, error) { return false, nil }
	return c.StandardClient().Get(url)
}

func mayRetry(url string) (*http.Response, error) { // want mayRetry:`retries\(3\)`
	c := retryablehttp.NewClient()
	c.RetryMax = 2
	c.CheckRetry = sometimes
	return c.Get(url)
}

func closureResult(url string) (*http.Response, error) { // want closureResult:`retries\(5\)`
	c := retryablehttp.NewClient()
	c.CheckRetry = outer
	return c.Get(url)
}

func namedResults(url string) (*http.Response, error) { // want namedResults:`retries\(5\)`
	c := retryablehttp.NewClient()
	c.CheckRetry = named
	return c.Get(url)
}

func nilPredicate(url string) (*http.Response, error) { // want nilPredicate:`retries\(5\)`
	c := &retryablehttp.Client{RetryMax: 4, CheckRetry: nil}
	return c.Get(url)
}

func variable(url string) (*http.Response, error) { // want variable:`retries\(5\)`
	c := retryablehttp.NewClient()
	c.CheckRetry = byVariable
	return c.Get(url)
}

func chosen(url string, check retryablehttp.CheckRetry) (*http.Response, error) { // want chosen:`retries\(5\)` chosen:`keeps\[1\]`
	c := retryablehttp.NewClient()
	c.CheckRetry = check
	return c.Get(url)
}
