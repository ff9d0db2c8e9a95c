package clienterrors

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// apiError is the refusal the API sent, built from the response: its
// Status holds the response's status code.
type apiError struct {
	Status int
	Reason string
}

func (e *apiError) Error() string { return fmt.Sprintf("api: %d %s", e.Status, e.Reason) }

// limitError has a code the package sets itself, not a response's status.
type limitError struct{ Code int }

func (e *limitError) Error() string { return fmt.Sprintf("limit: %d", e.Code) }

func (c *client) call(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		e := &apiError{Reason: resp.Status}
		e.Status = resp.StatusCode
		return e
	}
	if resp.Header.Get("X-Quota") == "0" {
		return &limitError{Code: 409}
	}
	return nil
}

// Confirm waits out a conflict the API reports in its error (a write of
// this session still pending): the error's Status is the response's, a
// client error, so no outage is retried: not reported.
func (c *client) Confirm(ctx context.Context, url string) error {
	for attempt := 0; ; attempt++ {
		err := c.call(ctx, url)
		if err == nil {
			return nil
		}
		var apiErr *apiError
		if attempt == 3 || !errors.As(err, &apiErr) || apiErr.Status != http.StatusConflict {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ConfirmUnavailable goes round when the API is unavailable (503), which
// every client meets together: reported.
func (c *client) ConfirmUnavailable(ctx context.Context, url string) error {
	for attempt := 0; ; attempt++ {
		err := c.call(ctx, url)
		if err == nil {
			return nil
		}
		var apiErr *apiError
		if attempt == 3 || !errors.As(err, &apiErr) || apiErr.Status != http.StatusServiceUnavailable {
			return err
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
}

// ConfirmLimited compares a code that no response gave: the model cannot
// tell it is a client error, and the loop is reported.
func (c *client) ConfirmLimited(ctx context.Context, url string) error {
	for attempt := 0; ; attempt++ {
		err := c.call(ctx, url)
		if err == nil {
			return nil
		}
		var le *limitError
		if attempt == 3 || !errors.As(err, &le) || le.Code != 409 {
			return err
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
}
