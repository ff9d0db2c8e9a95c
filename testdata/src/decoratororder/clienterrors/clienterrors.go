// Package clienterrors: a retry outside a breaker that goes round only on
// client-error responses never retries the breaker's open rejection,
// which sends no request and has no response.
package clienterrors

import (
	"errors"
	"net/http"
	"time"

	"github.com/sony/gobreaker"
)

var cb = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "auth"})

func send(hc *http.Client, req *http.Request) (*http.Response, error) {
	v, err := cb.Execute(func() (interface{}, error) { return hc.Do(req) })
	if err != nil {
		return nil, err
	}
	resp, ok := v.(*http.Response)
	if !ok {
		return nil, errors.New("no response")
	}
	return resp, nil
}

// RefreshAndResend resends only on 401, after the token was refreshed:
// not reported.
func RefreshAndResend(hc *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		resp, err = send(hc, req)
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized {
			return resp, err
		}
		time.Sleep(time.Second)
	}
	return resp, err
}

// ResendOnFailure resends on any error, the breaker's rejection too:
// reported.
func ResendOnFailure(hc *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 2; attempt++ { // want `retry outside a circuit breaker`
		resp, err = send(hc, req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return resp, err
}
