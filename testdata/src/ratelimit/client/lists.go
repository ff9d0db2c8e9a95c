package client

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"time"
)

// The statuses to retry, a list the package only reads.
var retryable = []int{http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable}

// A set of them.
var retryableSet = map[int]bool{429: true, 503: true}

// A list of statuses with neither 429 nor 503.
var gatewayErrors = []int{502, 504}

// An exported list: another package may change what it holds.
var RetryStatuses = []int{429, 503}

// A list the package changes: what it holds is not the literal.
var grown = []int{429}

func init() { grown = append(grown[:0], 500) }

// Retries the statuses of a list, tested with slices.Contains.
func fetchList(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(retryable, resp.StatusCode) {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(rand.N(time.Duration(1<<attempt) * time.Second)) // want `retry loop retries on 429 and 503 but waits its own delay without reading the response's Retry-After`
	}
	return nil, errGiveUp
}

// Retries the statuses of a set.
func fetchSet(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if retryableSet[resp.StatusCode] {
			resp.Body.Close()
			time.Sleep(rand.N(time.Second)) // want `retry loop retries on 429 and 503 but waits its own delay`
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// isRetryable asks the list for its caller's status.
func isRetryable(code int) bool { return slices.Contains(retryable, code) }

// The list behind a helper.
func fetchListHelper(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if !isRetryable(resp.StatusCode) {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(rand.N(time.Second)) // want `retry loop retries on 429 and 503 but waits its own delay`
	}
	return nil, errGiveUp
}

// Near misses: a list of other statuses, an exported list, a list the
// package changes. Not reported.
func okGateway(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(gatewayErrors, resp.StatusCode) {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(rand.N(time.Second))
	}
	return nil, errGiveUp
}

func okExported(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(RetryStatuses, resp.StatusCode) {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(rand.N(time.Second))
	}
	return nil, errGiveUp
}

func okGrown(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(grown, resp.StatusCode) {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(rand.N(time.Second))
	}
	return nil, errGiveUp
}
