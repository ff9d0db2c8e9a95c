package client

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// comeBack finds Retry-After whatever its spelling by ranging over the
// response's headers: a read the model cannot name, which may be it.
func comeBack(resp *http.Response, def time.Duration) time.Duration {
	for k, v := range resp.Header {
		if strings.EqualFold(k, "retry-after") && len(v) > 0 {
			if s, err := strconv.Atoi(v[0]); err == nil {
				return time.Duration(s) * time.Second
			}
		}
	}
	return def
}

// fetchRanged waits what the ranged read finds: not reported.
func fetchRanged(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			time.Sleep(comeBack(resp, rand.N(time.Second)))
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// copyHeaders ranges over the request's headers it builds, not the
// response's.
func copyHeaders(req *http.Request, from http.Header) {
	for k, v := range from {
		req.Header[k] = v
	}
}

// fetchCopied ranges only over headers it sends: still reported.
func fetchCopied(c *http.Client, url string, h http.Header) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		copyHeaders(req, h)
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			time.Sleep(rand.N(time.Second)) // want `retry loop retries on 429 but waits its own delay`
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}
