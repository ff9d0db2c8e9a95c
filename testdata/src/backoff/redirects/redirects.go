// Package redirects: a loop that aims its request at where the last
// response sent it follows a redirect; it does not send the failed
// request again.
package redirects

import (
	"errors"
	"net/http"
	"time"
)

var errTooMany = errors.New("too many redirects")

// follow points req at the response's Location, once per hop left.
func follow(req *http.Request, resp *http.Response, left *int) (bool, error) {
	if resp.StatusCode != http.StatusTemporaryRedirect {
		return false, nil
	}
	to, err := resp.Location()
	if err != nil {
		return false, err
	}
	if *left <= 0 {
		return false, errTooMany
	}
	*left--
	req.URL = to
	return true, nil
}

// Follows one redirect through a helper that rewrites the request.
func send(c *http.Client, req *http.Request) (*http.Response, error) {
	left := 1
	for {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		again, err := follow(req, resp, &left)
		if err != nil {
			return nil, err
		}
		if !again {
			return resp, nil
		}
		resp.Body.Close()
	}
}

// The same, the request rewritten in the loop.
func sendInline(c *http.Client, req *http.Request) (*http.Response, error) {
	for hops := 0; ; hops++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTemporaryRedirect || hops > 3 {
			return resp, nil
		}
		resp.Body.Close()
		to, err := resp.Location()
		if err != nil {
			return nil, err
		}
		req.URL = to
	}
}

// isMoved only reads the response: the request is the same every pass.
func isMoved(resp *http.Response) bool { return resp.StatusCode == http.StatusServiceUnavailable }

// stamp writes the request from the attempt number, not from a response.
func stamp(req *http.Request, attempt int) { req.URL.Fragment = string(rune('a' + attempt)) }

// The near misses: the request sent again is the one that failed.
func sendAgain(c *http.Client, req *http.Request) (*http.Response, error) {
	var last error
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err == nil && !isMoved(resp) {
			return resp, nil
		}
		last = err
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return nil, last
}

func sendStamped(c *http.Client, req *http.Request) (*http.Response, error) {
	var last error
	for i := 0; i < 3; i++ {
		stamp(req, i)
		resp, err := c.Do(req)
		if err == nil {
			return resp, nil
		}
		last = err
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return nil, last
}

type query struct {
	Body  []byte
	Index uint64
}

type result struct{ Index uint64 }

type kv struct{}

func (kv) get(q *query) (*result, error) { return &result{}, nil }

func marshal(v any) ([]byte, error) { return nil, nil }

// The request is rebuilt from a result of another call, not from what
// the server answered: the same request is sent again.
func getFresh(c kv, q *query, payload map[string]any) (*result, error) {
	var last error
	for i := 0; i < 3; i++ {
		body, err := marshal(payload)
		if err != nil {
			return nil, err
		}
		q.Body = body
		res, err := c.get(q)
		if err == nil {
			return res, nil
		}
		last = err
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return nil, last
}

// A long poll moves its index on after a success only; a failure goes
// round first, and sends the same request again.
func watch(c kv, q *query, stop <-chan struct{}, changed func(*result)) {
	for {
		res, err := c.get(q)
		if err != nil {
			select {
			case <-time.After(time.Second): // want `retry delay has no jitter`
				continue
			case <-stop:
				return
			}
		}
		q.Index = res.Index
		changed(res)
	}
}

type session struct {
	last *result
}

func (s *session) open(c kv, q *query) error {
	_, err := c.get(q)
	return err
}

// Keeping the result on success and returning aims nothing: the failed
// attempt is sent again.
func (s *session) reopen(c kv, q *query) error {
	var last error
	for i := 0; i < 3; i++ {
		res, err := c.get(q)
		if err == nil {
			q.Index = res.Index
			s.last = res
			return nil
		}
		last = err
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return last
}
