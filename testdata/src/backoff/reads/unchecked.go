package reads

import (
	"bytes"
	"net/http"
	"time"
)

// The request's construction error is assigned and then overwritten by
// the send's, unchecked: the code takes the request as built, and the
// send's outcome decides. Sending it is no progress on a partial result
// but the attempt itself: a retry.
func post(c *http.Client, url string, body []byte) (*http.Response, error) {
	var req *http.Request
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		req, err = http.NewRequest(http.MethodPut, url, bytes.NewReader(body))
		resp, err = c.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return resp, err
}

// Near miss: the construction error stays in its own variable, never
// checked, while the request is sent: the request is used as a partial
// result of an operation not known to have succeeded, which the model
// takes for progress (a read or write loop), and says nothing.
func postKept(c *http.Client, url string, body []byte) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		req, berr := http.NewRequest(http.MethodPut, url, bytes.NewReader(body))
		resp, err := c.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, berr
		}
		if err == nil {
			resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return nil, err
}
