// Package helpers runs requests that watch the caller's context through
// a retry helper that takes none: each attempt fails at once when the
// context is done, but the helper's time.Sleep between them does not
// end, so a caller who gave up waits out every delay. A helper that
// takes the context and selects on it, or a call from a function with no
// context, is not reported.
package helpers

import (
	"context"
	"errors"
	"net/http"
	"time"
)

func retry(attempts int, sleep time.Duration, f func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(sleep)
	}
	return err
}

func retryCtx(ctx context.Context, attempts int, f func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

func get(ctx context.Context, hc *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return errors.New(resp.Status)
	}
	return nil
}

// Check: reported at the helper's call.
func Check(ctx context.Context, hc *http.Client, url string) error {
	return retry(3, time.Second, func() error { return get(ctx, hc, url) }) // want `retry takes no context and waits between its attempts without watching one`
}

// CheckCtx gives the helper the context: not reported.
func CheckCtx(ctx context.Context, hc *http.Client, url string) error {
	return retryCtx(ctx, 3, func() error { return get(ctx, hc, url) })
}

// Background has no context of its own: not reported.
func Background(hc *http.Client, url string) error {
	return retry(3, time.Second, func() error { return get(context.Background(), hc, url) })
}

// sendRetrying has the request's context in scope: its own wait is
// reported where it waits, not again at its callers.
func sendRetrying(hc *http.Client, req *http.Request, f func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching req.Context\(\)`
	}
	return err
}

// Send: not reported here.
func Send(ctx context.Context, hc *http.Client, req *http.Request) error {
	return sendRetrying(hc, req, func() error { return get(ctx, hc, req.URL.String()) })
}
