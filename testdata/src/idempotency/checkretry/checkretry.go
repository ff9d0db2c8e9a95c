// Package checkretry: a POST through a go-retryablehttp client whose
// CheckRetry never returns true is sent once, not inside a retry; one
// whose predicate may return true is resent.
package checkretry

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

func noRetry(context.Context, *http.Response, error) (bool, error) { return false, nil }

func on503(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if resp != nil && resp.StatusCode == http.StatusServiceUnavailable {
		return true, nil
	}
	return false, err
}

// ---- sent once: no finding ------------------------------------------------

func createOnce(url string) error {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(context.Context, *http.Response, error) (bool, error) { return false, nil }
	resp, err := c.Post(url, "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func createLiteral(url string) error {
	c := &retryablehttp.Client{RetryMax: 3, CheckRetry: noRetry}
	resp, err := c.Post(url, "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type Orders struct {
	http *retryablehttp.Client
}

func NewOrders() *Orders {
	c := retryablehttp.NewClient()
	c.CheckRetry = noRetry
	return &Orders{http: c}
}

func (o *Orders) Create(ctx context.Context, url string) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := o.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (o *Orders) CreateStandard(url string) error {
	resp, err := o.http.StandardClient().Post(url, "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- near misses: resent ---------------------------------------------------

func createOn503(url string) error { // want createOn503:"key place: retryablehttp\\.Client\\.Post at checkretry\\.go:\\d+"
	c := retryablehttp.NewClient()
	c.CheckRetry = on503
	resp, err := c.Post(url, "application/json", nil) // want `retryablehttp.Client.Post sends POST inside a retry without an Idempotency-Key header`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func createOneBranch(url string) error { // want createOneBranch:"key place: retryablehttp\\.Client\\.Post at checkretry\\.go:\\d+"
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return false, err
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	resp, err := c.Post(url, "application/json", nil) // want `retryablehttp.Client.Post sends POST inside a retry without an Idempotency-Key header`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
