// Package recstatus retries by recursion on a response's status: the
// function calls itself again when the server answered with a status an
// outage or an overload gives (502, 503, 5xx), as it would on an error.
// A self-call on a client error (401 while the token is refreshed) or on
// a status no outage gives is no retry of a failure.
package recstatus

import (
	"net/http"
	"time"
)

type session struct {
	hc      *http.Client
	retries int
	token   string
}

func (s *session) refresh() {}

// Request resends at once on a 502, up to s.retries times: reported.
func (s *session) Request(url string, attempt int) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusBadGateway && attempt < s.retries {
		resp.Body.Close()
		return s.Request(url, attempt+1) // want `recursive retry tries again at once after a failure`
	}
	return resp, nil
}

// Switch waits a fixed second on a 503 in a switch on the status:
// reported.
func (s *session) Switch(url string, attempt int) (*http.Response, error) {
	resp, err := s.hc.Get(url)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusServiceUnavailable:
		if attempt < 3 {
			resp.Body.Close()
			time.Sleep(time.Second) // want `retry delay has no jitter`
			return s.Switch(url, attempt+1)
		}
	}
	return resp, nil
}

// Unauthorized refreshes the token and sends again on a 401: a client
// error, not reported.
func (s *session) Unauthorized(url string, attempt int) (*http.Response, error) {
	resp, err := s.hc.Get(url)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized && attempt < 1 {
		resp.Body.Close()
		s.refresh()
		return s.Unauthorized(url, attempt+1)
	}
	return resp, nil
}

// Moved follows a 301 to where it says: no failure, not reported.
func (s *session) Moved(url string, hops int) (*http.Response, error) {
	resp, err := s.hc.Get(url)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusMovedPermanently && hops < 5 {
		resp.Body.Close()
		return s.Moved(url, hops+1)
	}
	return resp, nil
}
