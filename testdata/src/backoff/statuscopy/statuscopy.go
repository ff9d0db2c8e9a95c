// Package statuscopy retries on a response status it copied into a local
// before testing it, only when the request got a response. The copy tests
// the response's status as resp.StatusCode would: the loops are retries,
// judged like the ones that test the field itself. The near misses copy
// something that is not only the status, and stay unjudged.
package statuscopy

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Fetch copies the status when the call succeeded and goes round on a
// failure or a 5xx after a fixed second: reported.
func Fetch(hc *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		var code int
		resp, err = hc.Do(req)
		if err == nil {
			code = resp.StatusCode
		}
		if err != nil || code >= 500 {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		break
	}
	return resp, err
}

// FetchDeclared copies it after an early exit on a failure: reported.
func FetchDeclared(hc *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; ; i++ {
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		status := resp.StatusCode
		if status != http.StatusServiceUnavailable || i == 4 {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(2 * time.Second) // want `retry delay has no jitter`
	}
}

// FetchJittered draws its delay: not reported.
func FetchJittered(hc *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		code := 0
		resp, err = hc.Do(req)
		if err == nil {
			code = resp.StatusCode
		}
		if err != nil || code >= 500 {
			time.Sleep(rand.N(time.Second))
			continue
		}
		break
	}
	return resp, err
}

// FetchHeader also takes the code from a header the service sets: the
// local is not only the response's status, so the loop tests something
// the model cannot follow, and stays unjudged.
func FetchHeader(hc *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		var code int
		resp, err = hc.Do(req)
		if err == nil {
			code = resp.StatusCode
			if v, perr := strconv.Atoi(resp.Header.Get("X-Status")); perr == nil {
				code = v
			}
		}
		if err != nil || code >= 500 {
			time.Sleep(time.Second)
			continue
		}
		break
	}
	return resp, err
}

// FetchCounted counts the statuses it saw in the same local: not a copy
// of one status, unjudged.
func FetchCounted(hc *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		var code int
		resp, err = hc.Do(req)
		if err == nil {
			code = resp.StatusCode
			code++
		}
		if err != nil || code >= 500 {
			time.Sleep(time.Second)
			continue
		}
		break
	}
	return resp, err
}
