// Package methodparam: a helper that sends with the method its caller
// gives is judged where the method is known, at the caller.
package methodparam

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"
)

type client struct{ hc *http.Client }

func (c *client) do(ctx context.Context, method, url string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return nil, err
	}
	return c.hc.Do(req)
}

// Charge retries a POST through the helper: reported at the call.
func (c *client) Charge(ctx context.Context) (*http.Response, error) { // want Charge:"key place: \\(\\*client\\).do at methodparam\\.go:\\d+"
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.do(ctx, http.MethodPost, "https://pay.example/charges", strings.NewReader("{}")); err == nil { // want `sends POST .* inside a retry without an Idempotency-Key header`
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

// Status retries a GET through the same helper: not reported.
func (c *client) Status(ctx context.Context) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.do(ctx, http.MethodGet, "https://pay.example/status", nil); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

// Any retries whatever method it is given: not known here, not reported.
func (c *client) Any(ctx context.Context, method string) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.do(ctx, method, "https://pay.example/any", nil); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}
