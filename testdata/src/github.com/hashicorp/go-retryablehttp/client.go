// Package retryablehttp is a stub of github.com/hashicorp/go-retryablehttp for tests.
package retryablehttp

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

type Request struct {
	*http.Request
}

func NewRequest(method, url string, rawBody interface{}) (*Request, error) { return nil, nil }
func NewRequestWithContext(ctx context.Context, method, url string, rawBody interface{}) (*Request, error) {
	return nil, nil
}

type CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)
type Backoff func(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration

type Client struct {
	HTTPClient   *http.Client
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	RetryMax     int
	CheckRetry   CheckRetry
	Backoff      Backoff
}

func NewClient() *Client { return &Client{RetryMax: 4} }

func (c *Client) Do(req *Request) (*http.Response, error) { return nil, nil }
func (c *Client) Get(url string) (*http.Response, error)  { return nil, nil }
func (c *Client) Head(url string) (*http.Response, error) { return nil, nil }
func (c *Client) Post(url, bodyType string, body interface{}) (*http.Response, error) {
	return nil, nil
}
func (c *Client) PostForm(url string, data url.Values) (*http.Response, error) { return nil, nil }
func (c *Client) StandardClient() *http.Client                                 { return &http.Client{} }

func Get(url string) (*http.Response, error)                              { return nil, nil }
func Head(url string) (*http.Response, error)                             { return nil, nil }
func Post(url, bodyType string, body interface{}) (*http.Response, error) { return nil, nil }
func PostForm(url string, data url.Values) (*http.Response, error)        { return nil, nil }

func DefaultBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	return min
}
func LinearJitterBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	return min
}

// DefaultRetryPolicy retries on connection errors and on 429 and 5xx
// responses.
func DefaultRetryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err != nil {
		return true, err
	}
	return resp.StatusCode == 429 || resp.StatusCode >= 500, nil
}
