// Package checkretry: a go-retryablehttp client whose CheckRetry never
// returns true makes one attempt, so a loop around it is no nested retry;
// one whose predicate may return true is an inner retry.
package checkretry

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

func noRetry(context.Context, *http.Response, error) (bool, error) { return false, nil }

func on503(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if resp != nil && resp.StatusCode == http.StatusServiceUnavailable {
		return true, nil
	}
	return false, err
}

// ---- one attempt per call: no finding ---------------------------------------

func standardOnce(url string) error {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(context.Context, *http.Response, error) (bool, error) { return false, nil }
	hc := c.StandardClient()
	for i := 0; i < 3; i++ {
		resp, err := hc.Get(url)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("unavailable")
}

type Quotes struct {
	http *retryablehttp.Client
}

func NewQuotes() *Quotes {
	return &Quotes{http: &retryablehttp.Client{RetryMax: 3, CheckRetry: noRetry}}
}

func (q *Quotes) get(url string) error {
	resp, err := q.http.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (q *Quotes) Get(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = q.get(url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// ---- near misses: nested ----------------------------------------------------

func standardOn503(url string) error {
	c := retryablehttp.NewClient()
	c.CheckRetry = on503
	hc := c.StandardClient()
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching a http.Client.Get of a retryablehttp StandardClient \(5 attempts\) at checkretry.go:\d+: up to 15 downstream calls per request`
		resp, err := hc.Get(url)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("unavailable")
}

func standardOneBranch(url string) error {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return false, err
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	hc := c.StandardClient()
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching a http.Client.Get of a retryablehttp StandardClient \(5 attempts\) at checkretry.go:\d+: up to 15 downstream calls per request`
		resp, err := hc.Get(url)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("unavailable")
}
