// Package statuses: every status of net/http's constants is one the
// model can compare with; a loop that succeeds only on 202 Accepted is a
// retry like one that succeeds on 200, and one that goes round on 202
// (still processing) is a poll.
package statuses

import (
	"bytes"
	"errors"
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 10 * time.Second}

// Submit retries until the queue accepts the event.
func Submit(url string, ev []byte) error {
	for i := 0; i < 5; i++ {
		resp, err := client.Post(url, "application/octet-stream", bytes.NewReader(ev))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusAccepted {
				return nil
			}
		}
		time.Sleep(2 * time.Second) // want `retry delay has no jitter`
	}
	return errors.New("submit: retries exhausted")
}

// The near miss: 202 says the job is still running; the loop polls until
// it is done (200) and leaves on any failure.
func WaitDone(url string) error {
	for {
		resp, err := client.Get(url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusOK:
			return nil
		case http.StatusAccepted:
			time.Sleep(2 * time.Second)
			continue
		default:
			return errors.New(resp.Status)
		}
	}
}
