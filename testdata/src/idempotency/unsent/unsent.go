// Package unsent resends a POST only when the connection was refused:
// the request never reached the server, which did nothing a resend could
// repeat, so no key is asked for. A connection reset, or any failure, may
// come after the server acted: reported.
package unsent

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

func post(ctx context.Context, c *http.Client, url string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// Refused goes round only on a refused connection: not reported.
func Refused(ctx context.Context, c *http.Client, url string, body []byte) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = post(ctx, c, url, body)
		if err == nil {
			return resp, nil
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			return nil, err
		}
		time.Sleep(time.Duration(i+1) * 100 * time.Millisecond)
	}
	return nil, err
}

// RefusedUnix compares with x/sys/unix's number: not reported.
func RefusedUnix(ctx context.Context, c *http.Client, url string, body []byte) (*http.Response, error) {
	for i := 0; ; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err == nil || i == 2 || !errors.Is(err, unix.ECONNREFUSED) {
			return resp, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Reset goes round on a reset connection too, which may come after the
// server acted: reported.
func Reset(ctx context.Context, c *http.Client, url string, body []byte) (*http.Response, error) { // want Reset:"key place: http.Client.Do at unsent\\.go:\\d+"
	var err error
	for i := 0; i < 3; i++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		var resp *http.Response
		resp, err = c.Do(req) // want `sends POST inside a retry without an Idempotency-Key header`
		if err == nil {
			return resp, nil
		}
		if !errors.Is(err, syscall.ECONNREFUSED) && !errors.Is(err, syscall.ECONNRESET) {
			return nil, err
		}
		time.Sleep(time.Duration(i+1) * 100 * time.Millisecond)
	}
	return nil, err
}
