// Package generic sends every request through one helper that reads the
// method from a field of a request struct the package fills with
// different methods in different places: at the helper's send the method
// is not known, and a retried call of the helper is not reported, whatever
// it sends. A field the package only ever sets to POST is known.
package generic

import (
	"net/http"
	"time"
)

type request struct {
	Method string
	Path   string
}

type client struct {
	hc   *http.Client
	base string
}

func (c *client) do(r *request) (*http.Response, error) {
	req, err := http.NewRequest(r.Method, c.base+r.Path, nil)
	if err != nil {
		return nil, err
	}
	return c.hc.Do(req)
}

// Query: the helper's method may be GET or POST. Not reported.
func (c *client) Query() (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = c.do(&request{Method: http.MethodPost, Path: "/query"})
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Duration(i+1) * 100 * time.Millisecond)
	}
	return nil, err
}

func (c *client) Status() (*http.Response, error) {
	return c.do(&request{Method: http.MethodGet, Path: "/status"})
}

type charge struct {
	Method string
	Amount int
}

func (c *client) send(ch *charge) (*http.Response, error) {
	req, err := http.NewRequest(ch.Method, c.base+"/charges", nil)
	if err != nil {
		return nil, err
	}
	return c.hc.Do(req)
}

// Charge: every charge the package makes is a POST. Reported.
func (c *client) Charge(amount int) (*http.Response, error) { // want Charge:"key place: \\(\\*client\\)\\.send at generic\\.go:\\d+"
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = c.send(&charge{Method: http.MethodPost, Amount: amount}) // want `sends POST`
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Duration(i+1) * 100 * time.Millisecond)
	}
	return nil, err
}
