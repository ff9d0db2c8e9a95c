package verdicts

import (
	"errors"
	"net/http"
	"time"
)

// classify decides from a response's status whether to send again; it
// also checks the configured codes, so it returns an error too.
func classify(code int, codes []int) (bool, error) {
	if len(codes) == 0 {
		return code == http.StatusTooManyRequests || code >= 500, nil
	}
	for _, c := range codes {
		if c < 100 || c > 599 {
			return false, errors.New("bad status code in the configuration")
		}
		if c == code {
			return true, nil
		}
	}
	return false, nil
}

type resender struct {
	hc    *http.Client
	tries int
	codes []int
}

// Given a field of the response (its status), the call is a predicate
// over the pass's results, not an operation with a "more" of its own:
// the loop retries, waiting a fixed pause at the start of each pass after
// the first.
func (r *resender) send(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for n := 0; n <= r.tries; n++ {
		if n != 0 {
			time.Sleep(time.Second) // want `retry delay has no jitter`
		}
		resp, err = r.hc.Do(req)
		if err != nil {
			continue
		}
		again, err := classify(resp.StatusCode, r.codes)
		if err != nil {
			return resp, err
		}
		if !again {
			break
		}
		resp.Body.Close()
	}
	return resp, err
}

type batch struct {
	code  int
	codes []int
}

// Near miss: given a field of a value no operation returned, the call's
// bool is its own "more", taken at once: a walk, not a retry.
func (r *resender) drain(req *http.Request, b *batch) (*http.Response, error) {
	var resp *http.Response
	var err error
	for n := 0; n <= r.tries; n++ {
		if n != 0 {
			time.Sleep(time.Second)
		}
		resp, err = r.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		more, err := classify(b.code, b.codes)
		if err != nil {
			return resp, err
		}
		if !more {
			break
		}
	}
	return resp, err
}
