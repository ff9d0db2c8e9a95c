// Package sentonce: a POST inside a loop is re-sent only when a path that
// made it can go round again.
package sentonce

import (
	"errors"
	"net/http"
	"time"
)

// The POST is made once the service answers ready, and every path after
// it leaves the loop: the loop retries the GET, never the POST.
func registerWhenReady(c *http.Client, base string) error {
	for i := 0; i < 10; i++ {
		resp, err := c.Get(base + "/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				r, err := c.Post(base+"/nodes", "application/json", nil)
				if err != nil {
					return err
				}
				r.Body.Close()
				break
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return nil
}

// The near miss: a failed POST goes round the loop and is sent again.
func registerRetrying(c *http.Client, base string) error { // want registerRetrying:"key place: http\\.Client\\.Post at sentonce\\.go:\\d+"
	for i := 0; i < 10; i++ {
		resp, err := c.Get(base + "/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				r, err := c.Post(base+"/nodes", "application/json", nil) // want `http.Client.Post sends POST inside a retry without an Idempotency-Key header`
				if err != nil {
					continue
				}
				r.Body.Close()
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return errors.New("not registered")
}

// Another near miss: the POST succeeds, a later step fails, and the
// next pass sends the POST again.
func registerThenConfirm(c *http.Client, base string, confirm func() error) error { // want registerThenConfirm:"key place: http\\.Client\\.Post at sentonce\\.go:\\d+"
	for i := 0; i < 3; i++ {
		r, err := c.Post(base+"/nodes", "application/json", nil) // want `http.Client.Post sends POST inside a retry without an Idempotency-Key header`
		if err != nil {
			return err
		}
		r.Body.Close()
		if err := confirm(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("not confirmed")
}
