// Package timers: a timer made in a retry and handed to the call it
// bounds is that call's timeout, not a wait between attempts; a timer the
// retry itself waits on is its delay.
package timers

import (
	"errors"
	"net/http"
	"time"
)

type conn struct {
	hc      *http.Client
	timeout time.Duration
}

// doTimeout sends req and gives up when timer fires first.
func (c *conn) doTimeout(timer *time.Timer, req *http.Request) (*http.Response, error) {
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := c.hc.Do(req)
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-timer.C:
		return nil, errors.New("timed out")
	}
}

// Authenticate sends the request once more when it is refused; the
// timer bounds each request: no delay to judge.
func (c *conn) Authenticate(req *http.Request) (err error) {
	retries := 1
again:
	timer := time.NewTimer(5 * time.Second)
	defer timer.Stop()
	var resp *http.Response
	resp, err = c.doTimeout(timer, req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err = check(resp); err != nil {
		if errors.Is(err, errRefused) && retries > 0 {
			retries--
			goto again
		}
		return err
	}
	return nil
}

var errRefused = errors.New("refused")

func check(resp *http.Response) error {
	if resp.StatusCode >= 400 {
		return errRefused
	}
	return nil
}

// Fetch waits out a fixed second on its own timer between attempts:
// reported.
func (c *conn) Fetch(req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.hc.Do(req); err == nil {
			return resp, nil
		}
		t := time.NewTimer(time.Second) // want `waits without watching req.Context\(\)`
		<-t.C
	}
	return nil, err
}
