// Package recursive: a POST retried by the function that sends it
// calling itself is one retry, not a retry of a retry.
package recursive

import (
	"bytes"
	"errors"
	"net/http"
)

var errTemporary = errors.New("temporary")

type transport struct{ hc *http.Client }

func (t *transport) doSend(body []byte, retriesLeft int) error { // want doSend:"key place: http\\.Client\\.Post at recursive\\.go:\\d+"
	resp, err := t.hc.Post("https://api.example/item", "application/json", bytes.NewReader(body)) // want `http\.Client\.Post sends POST inside a retry without an Idempotency-Key header`
	if err != nil {
		if retriesLeft > 0 {
			return t.doSend(body, retriesLeft-1)
		}
		return err
	}
	return resp.Body.Close()
}
