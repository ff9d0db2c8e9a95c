// Package clienterrors: a POST resent only after the server refused it
// with a client error was not carried out, so the resend cannot do it
// twice; one resent after a 5xx may have been.
package clienterrors

import (
	"net/http"
	"strings"
	"time"
)

// ChargeAuthed resends the charge only on 401, once the token was
// refreshed: not reported.
func ChargeAuthed(c *http.Client, url string) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = c.Post(url, "application/json", strings.NewReader(`{"amount":100}`))
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized {
			return resp, err
		}
		resp.Body.Close()
		time.Sleep(time.Second)
	}
	return resp, err
}

// ChargeBusy resends the charge on 503: the first may have been carried
// out. Reported.
func ChargeBusy(c *http.Client, url string) (*http.Response, error) { // want ChargeBusy:"key place: http\\.Client\\.Post at clienterrors\\.go:\\d+"
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = c.Post(url, "application/json", strings.NewReader(`{"amount":100}`)) // want `http.Client.Post sends POST inside a retry without an Idempotency-Key header`
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusServiceUnavailable {
			return resp, err
		}
		resp.Body.Close()
		time.Sleep(time.Second)
	}
	return resp, err
}
