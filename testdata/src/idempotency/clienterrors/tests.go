package clienterrors

import (
	"net/http"
	"strings"
)

// needsWiderGrant answers true only on a 401 asking for a wider grant.
func needsWiderGrant(r *http.Response) bool {
	return r.StatusCode == http.StatusUnauthorized && strings.Contains(r.Header.Get("WWW-Authenticate"), "insufficient_scope")
}

// busy answers true on a 503.
func busy(r *http.Response) bool {
	return r.StatusCode == http.StatusServiceUnavailable
}

// ChargeGranted resends the charge once, with a wider grant, after the
// server refused it for lack of one, as the helper tells: not reported.
func ChargeGranted(c *http.Client, url string) (*http.Response, error) {
	grant := "narrow"
	for tries := 0; tries < 2; tries++ {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"amount":100}`))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+grant)
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if tries == 0 && needsWiderGrant(resp) {
			resp.Body.Close()
			grant = "wide"
			continue
		}
		return resp, nil
	}
	return nil, nil
}

// ChargeUnbusy resends it after a 503, as the other helper tells: the
// first may have been carried out. Reported.
func ChargeUnbusy(c *http.Client, url string) (*http.Response, error) { // want ChargeUnbusy:"key place: http\\.Client\\.Do at tests\\.go:\\d+"
	for tries := 0; tries < 2; tries++ {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"amount":100}`))
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req) // want `http.Client.Do sends POST inside a retry without an Idempotency-Key header`
		if err != nil {
			return nil, err
		}
		if tries == 0 && busy(resp) {
			resp.Body.Close()
			continue
		}
		return resp, nil
	}
	return nil, nil
}
