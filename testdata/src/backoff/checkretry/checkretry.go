// Package checkretry: go-retryablehttp clients whose CheckRetry never
// returns true make one attempt: they wait no delay between attempts,
// whatever their Backoff. A predicate that may return true keeps the
// client a retry.
package checkretry

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"

	"backoff/checkretry/policies"
)

const stop = false

func noRetry(context.Context, *http.Response, error) (bool, error) { return false, nil }

// Every return gives false (a named constant too).
func giveUp(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	return stop, nil
}

// Returns what a never-retrying predicate returns.
func delegates(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return noRetry(ctx, resp, err)
}

// ---- never retry: no finding ---------------------------------------------

func literalPredicate(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(context.Context, *http.Response, error) (bool, error) { return false, nil }
	return c.Get(url)
}

func namedPredicate(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.CheckRetry = noRetry
	return c.Get(url)
}

func branchesAllFalse(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.CheckRetry = giveUp
	return c.Get(url)
}

func delegated(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.CheckRetry = delegates
	return c.Get(url)
}

func converted(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.CheckRetry = retryablehttp.CheckRetry(noRetry)
	return c.Get(url)
}

func inLiteral(url string) (*http.Response, error) {
	c := &retryablehttp.Client{RetryMax: 3, CheckRetry: noRetry}
	return c.Get(url)
}

func otherPackage(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.CheckRetry = policies.Never
	return c.Get(url)
}

func standardClient(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.CheckRetry = noRetry
	return c.StandardClient().Get(url)
}

// A client built in a constructor, kept in a field, used in a method.
type API struct {
	http *retryablehttp.Client
}

func New() *API {
	c := retryablehttp.NewClient()
	c.CheckRetry = noRetry
	return &API{http: c}
}

func (a *API) Fetch(url string) (*http.Response, error) {
	return a.http.Get(url)
}

// ---- near misses: the client may retry -----------------------------------

func on503(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if resp != nil && resp.StatusCode == http.StatusServiceUnavailable {
		return true, nil
	}
	return false, err
}

// False on one branch only: the other asks the default policy.
func falseOnError(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
}

func retriesOn503(url string) (*http.Response, error) {
	c := retryablehttp.NewClient() // want `retryablehttp.Client.Get waits without jitter \(a client left on DefaultBackoff\)`
	c.CheckRetry = on503
	return c.Get(url)
}

func retriesLiteral(url string) (*http.Response, error) {
	c := retryablehttp.NewClient() // want `retryablehttp.Client.Get waits without jitter \(a client left on DefaultBackoff\)`
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return false, err
		}
		return resp.StatusCode >= 500, nil
	}
	return c.Get(url)
}

func retriesOneBranch(url string) (*http.Response, error) {
	c := &retryablehttp.Client{RetryMax: 3, CheckRetry: falseOnError} // want `waits without jitter \(a client without Backoff \(DefaultBackoff\)\)`
	return c.Get(url)
}

func retriesOtherPackage(url string) (*http.Response, error) {
	c := retryablehttp.NewClient() // want `retryablehttp.Client.Get waits without jitter \(a client left on DefaultBackoff\)`
	c.CheckRetry = policies.OnUnavailable
	return c.Get(url)
}

// The last write wins: the client retries on 503.
func rewritten(url string) (*http.Response, error) {
	c := retryablehttp.NewClient() // want `retryablehttp.Client.Get waits without jitter \(a client left on DefaultBackoff\)`
	c.CheckRetry = noRetry
	c.CheckRetry = on503
	return c.Get(url)
}

// A predicate the caller chooses is unknown: the client is judged as one
// that retries, as a RetryMax the model cannot read is.
func chosen(url string, check retryablehttp.CheckRetry) (*http.Response, error) {
	c := retryablehttp.NewClient() // want `retryablehttp.Client.Get waits without jitter \(a client left on DefaultBackoff\)`
	c.CheckRetry = check
	return c.Get(url)
}

func chosenRetryMax(url string, n int) (*http.Response, error) {
	c := retryablehttp.NewClient() // want `retryablehttp.Client.Get waits without jitter \(a client left on DefaultBackoff\)`
	c.RetryMax = n
	return c.Get(url)
}

// A field given two clients: one of them retries.
type Mixed struct {
	http *retryablehttp.Client
}

func NewQuiet() *Mixed {
	c := retryablehttp.NewClient()
	c.CheckRetry = noRetry
	return &Mixed{http: c}
}

func NewLoud() *Mixed {
	return &Mixed{http: retryablehttp.NewClient()} // want `retryablehttp.Client.Get waits without jitter \(a client left on DefaultBackoff\)`
}

func (m *Mixed) Fetch(url string) (*http.Response, error) {
	return m.http.Get(url)
}
