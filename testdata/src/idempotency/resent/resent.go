// Package resent: a retry that sends the same helper's POST from two
// places, the attempt and a resend at once on a dropped connection, is
// one behaviour, reported once.
package resent

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"time"
)

type client struct {
	hc  *http.Client
	url string
}

func (c *client) post(ctx context.Context, path string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *client) push(ctx context.Context, body []byte) error { return c.post(ctx, "/push", body) }

func (c *client) audit(ctx context.Context, body []byte) error { return c.post(ctx, "/audit", body) }

// Ship resends at once when the connection dropped, then waits and goes
// round: one retry of one request.
func (c *client) Ship(ctx context.Context, body []byte) error { // want Ship:"key place: \\(\\*client\\)\\.push at resent\\.go:\\d+"
	for attempt := 0; attempt < 5; attempt++ {
		err := c.push(ctx, body) // want `\(\*client\)\.push sends POST \(http\.Client\.Do at resent\.go:\d+\) inside a retry without an Idempotency-Key header`
		if err != nil && errors.Is(err, io.EOF) {
			err = c.push(ctx, body)
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return errors.New("ship failed")
}

// Near miss: two requests, to two endpoints, each retried: two findings.
func (c *client) ShipAudited(ctx context.Context, body []byte) error { // want ShipAudited:"key place: \\(\\*client\\)\\.push at resent\\.go:\\d+"
	for attempt := 0; attempt < 5; attempt++ {
		err := c.push(ctx, body) // want `\(\*client\)\.push sends POST`
		if err == nil {
			err = c.audit(ctx, body) // want `\(\*client\)\.audit sends POST`
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return errors.New("ship failed")
}
