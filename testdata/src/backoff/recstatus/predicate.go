package recstatus

import (
	"fmt"
	"net/http"
)

// overloaded says whether a response is one an outage or an overload
// gives: every return is such a test, so true means the server failed.
func overloaded(resp *http.Response) bool {
	if resp.StatusCode == http.StatusTooManyRequests {
		return true
	}
	return resp.StatusCode >= 500
}

// fine says whether a response succeeded.
func fine(resp *http.Response) bool { return resp.StatusCode < 300 }

// Fetch resends at once when the predicate says the server failed,
// carrying the last failure along to return it: the request sent is the
// same. Reported.
func (s *session) Fetch(req *http.Request, attempt int, last error) (*http.Response, error) {
	if attempt >= s.retries {
		return nil, last
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if overloaded(resp) {
		resp.Body.Close()
		return s.Fetch(req, attempt+1, fmt.Errorf("status %d", resp.StatusCode)) // want `recursive retry tries again at once after a failure`
	}
	return resp, nil
}

// Near miss: the self-call follows a success by the predicate (the next
// page), not a failure.
func (s *session) Walk(req *http.Request, attempt int, last error) (*http.Response, error) {
	if attempt >= s.retries {
		return nil, last
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if fine(resp) {
		resp.Body.Close()
		return s.Walk(req, attempt+1, nil)
	}
	return resp, nil
}

// causer is an error that wraps its cause.
type causer interface {
	error
	Cause() error
}

// Near miss: the self-call is given the cause of the error it was given,
// a variable taken from it, not a failure described anew: a walk down a
// chain of errors, no retry.
func temporary(err error) bool {
	c, ok := err.(causer)
	if !ok {
		return false
	}
	cause := c.Cause()
	if cause != nil {
		return temporary(cause)
	}
	return false
}
