// Package passes: loops of a constant number of passes that change what
// they send by the pass they are in. When no two passes send the same
// request, the loop is a fallback (a byte range first, the whole
// resource after), not a retry; when two may, it retries.
package passes

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"
)

var errNoHeader = errors.New("no header")

// Header asks for one byte of the blob first and for all of it on the
// second pass: the two requests differ.
func Header(ctx context.Context, rt http.RoundTripper, url string) (*http.Response, error) {
	for i := range 2 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			req.Header.Set("Range", "bytes=0-1")
		}
		resp, err := rt.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusPartialContent {
			return resp, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, errNoHeader
}

// HeaderSteps does the same with a counted loop and a test of the pass
// on each side.
func HeaderSteps(ctx context.Context, c *http.Client, url string) error {
	for attempt := 1; attempt <= 2; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if attempt < 2 {
			req.Header.Set("Range", "bytes=0-1")
		} else {
			req.Header.Set("Accept-Encoding", "identity")
		}
		resp, err := c.Do(req)
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		resp.Body.Close()
		return nil
	}
	return errNoHeader
}

// Near misses: with three passes, the last two send the same request; a
// test of the pass that changes nothing sent (a log line) leaves every
// pass the same.
func HeaderThrice(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `tries again at once`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if i == 0 {
			req.Header.Set("Range", "bytes=0-1")
		}
		resp, err := c.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		return nil
	}
	return errNoHeader
}

func HeaderLogged(ctx context.Context, c *http.Client, url string, logf func(string)) error {
	for i := range 2 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if i == 1 {
			logf("second try")
		}
		resp, err := c.Do(req)
		if err != nil {
			time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
			continue
		}
		defer resp.Body.Close()
		_, err = io.ReadAll(resp.Body)
		return err
	}
	return errNoHeader
}
