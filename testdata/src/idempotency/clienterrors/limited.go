package clienterrors

import (
	"net/http"
	"strings"
	"time"
)

// ChargeLimited resends the charge only after a 429: the rate limiter
// refused it before anything ran, so the resend cannot charge twice. Not
// reported.
func ChargeLimited(c *http.Client, url string) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = c.Post(url, "application/json", strings.NewReader(`{"amount":100}`))
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp, err
		}
		resp.Body.Close()
		time.Sleep(time.Second)
	}
	return resp, err
}

// ChargeLimitedOrDown also resends after a 502, which a proxy answers
// when the backend may have run it: reported.
func ChargeLimitedOrDown(c *http.Client, url string) (*http.Response, error) { // want ChargeLimitedOrDown:"key place: http\\.Client\\.Post at limited\\.go:\\d+"
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = c.Post(url, "application/json", strings.NewReader(`{"amount":100}`)) // want `http.Client.Post sends POST inside a retry without an Idempotency-Key header`
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusBadGateway {
			return resp, err
		}
		resp.Body.Close()
		time.Sleep(time.Second)
	}
	return resp, err
}
