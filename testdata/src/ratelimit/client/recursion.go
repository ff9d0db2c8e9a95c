package client

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// fetchAgain retries by calling itself on 429, after its own backoff.
func fetchAgain(c *http.Client, url string, attempt int) (*http.Response, error) {
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusTooManyRequests && attempt < 4 {
		resp.Body.Close()
		time.Sleep(rand.N(time.Duration(1<<attempt) * time.Second)) // want `recursive retry retries on 429 but waits its own delay without reading the response's Retry-After`
		return fetchAgain(c, url, attempt+1)
	}
	return resp, nil
}

// Near miss: the same recursion waits what Retry-After says.
func fetchAgainAdvised(c *http.Client, url string, attempt int) (*http.Response, error) {
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusTooManyRequests && attempt < 4 {
		resp.Body.Close()
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		time.Sleep(time.Duration(secs)*time.Second + rand.N(time.Second))
		return fetchAgainAdvised(c, url, attempt+1)
	}
	return resp, nil
}
