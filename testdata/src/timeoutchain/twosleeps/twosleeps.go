// Package twosleeps: one retry that sleeps through cancellation in two
// places is one finding; waits of different retries stay apart.
package twosleeps

import (
	"context"
	"errors"
	"net/http"
	"time"
)

var errBusy = errors.New("busy")

func call(ctx context.Context) error { return errBusy }

type client struct{ hc *http.Client }

// Two waits of one loop, both without the context: one finding, at the
// first, the second related, one fix for both.
func twoSleeps(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = call(ctx)
		if errors.Is(err, errBusy) {
			time.Sleep(2 * time.Second) // want `the retry loop waits without watching ctx`
			continue
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A retry on errors and 5xx statuses that waits in both branches: the
// function returns more than an error, so there is no fix, and still one
// finding.
func (c *client) twoSleepsNoFix(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i <= 3; i++ {
		resp, err = c.hc.Do(req)
		if err != nil {
			time.Sleep(time.Second) // want `the retry loop waits without watching req.Context\(\)`
			continue
		}
		if resp.StatusCode >= http.StatusInternalServerError {
			time.Sleep(time.Second)
			continue
		}
		break
	}
	return resp, err
}

// ---- near misses ---------------------------------------------------------

// Two retries, one wait each: two behaviours, two findings.
func twoRetries(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			break
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	return err
}

// One wait watches the context, the other does not: one finding, at the
// one that does not.
func oneOfTwo(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = call(ctx)
		if errors.Is(err, errBusy) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
			continue
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	return err
}
