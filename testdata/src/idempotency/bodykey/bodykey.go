// Package bodykey: POSTs that name themselves in their body with a value
// drawn at random once, before the retry.
package bodykey

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	mrand "math/rand/v2"
	"net/http"
	"time"

	"github.com/resilint/resilint/runtime/idempotency"
	"github.com/resilint/resilint/runtime/retry"
)

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

type event struct {
	Name string `json:"name"`
}

type batch struct {
	ID     string  `json:"id"`
	Events []event `json:"events"`
}

type client struct {
	hc  *http.Client
	url string
}

func (c *client) upload(b []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(b))
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return errors.New(resp.Status)
	}
	return nil
}

// The batch's id is drawn once and every attempt sends the same bytes:
// the service deduplicates on it. Not reported.
func (c *client) flush(events []event) error { // want flush:"key place: \\(\\*client\\)\\.upload at bodykey\\.go:\\d+"
	b, err := json.Marshal(batch{ID: newID(), Events: events})
	if err != nil {
		return err
	}
	for i := 0; i < 5; i++ {
		if err = c.upload(b); err == nil {
			return nil
		}
		time.Sleep(retry.FullJitter(time.Second))
	}
	return err
}

type payment struct {
	IdempotencyKey string `json:"idempotency_key"`
	Amount         int    `json:"amount"`
}

// A request built in the loop from a body made once with a key drawn by
// runtime/idempotency: not reported.
func (c *client) pay(amount int) error { // want pay:"key place: http\\.Client\\.Do at bodykey\\.go:\\d+"
	body, err := json.Marshal(payment{IdempotencyKey: idempotency.NewKey(), Amount: amount})
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(retry.FullJitter(time.Second))
	}
	return err
}

// The near misses: an id drawn anew by each attempt, and a body that
// carries none.
func (c *client) flushFresh(events []event) error { // want flushFresh:"key place: \\(\\*client\\)\\.upload at bodykey\\.go:\\d+"
	var err error
	for i := 0; i < 5; i++ {
		b, _ := json.Marshal(batch{ID: newID(), Events: events})
		if err = c.upload(b); err == nil { // want `sends POST \(http.Client.Do at bodykey.go:\d+\) inside a retry without an Idempotency-Key header`
			return nil
		}
		time.Sleep(retry.FullJitter(time.Second))
	}
	return err
}

func (c *client) flushPlain(events []event) error { // want flushPlain:"key place: \\(\\*client\\)\\.upload at bodykey\\.go:\\d+"
	b, err := json.Marshal(events)
	if err != nil {
		return err
	}
	for i := 0; i < 5; i++ {
		if err = c.upload(b); err == nil { // want `sends POST \(http.Client.Do at bodykey.go:\d+\) inside a retry without an Idempotency-Key header`
			return nil
		}
		time.Sleep(retry.FullJitter(time.Second))
	}
	return err
}

type numbered struct {
	Seq    int64   `json:"seq"`
	Events []event `json:"events"`
}

// A random number is no identifier the server names the request by.
func (c *client) flushNumbered(events []event) error { // want flushNumbered:"key place: \\(\\*client\\)\\.upload at bodykey\\.go:\\d+"
	b, err := json.Marshal(numbered{Seq: mrand.Int64(), Events: events})
	if err != nil {
		return err
	}
	for i := 0; i < 5; i++ {
		if err = c.upload(b); err == nil { // want `sends POST \(http.Client.Do at bodykey.go:\d+\) inside a retry without an Idempotency-Key header`
			return nil
		}
		time.Sleep(retry.FullJitter(time.Second))
	}
	return err
}
