// Package bounds: stops and bounds a retry loop may have, and retries
// decided by a returned bool.
package bounds

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

func call(ctx context.Context) error { return errors.New("down") }

func jittered(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

// isHalt checks the context it is given (its CtxCheckFact).
func isHalt(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled)
}

// isFatal looks only at the error: no bound.
func isFatal(err error) bool { return errors.Is(err, errors.ErrUnsupported) }

// The context is checked inside a helper: bounded by it.
func haltHelper(ctx context.Context) error {
	for {
		err := call(ctx)
		if err == nil {
			return nil
		}
		if isHalt(ctx, err) {
			return err
		}
		time.Sleep(jittered(time.Second)) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

// A helper that only classifies the error bounds nothing.
func fatalHelper(ctx context.Context) error {
	for { // want `retry loop has no bound`
		err := call(ctx)
		if err == nil {
			return nil
		}
		if isFatal(err) {
			return err
		}
		time.Sleep(jittered(time.Second)) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

type worker struct{ stop chan struct{} }

// The wait selects on a stop channel: another goroutine ends the loop.
func (w *worker) stopChannel(ctx context.Context) error {
	for {
		err := call(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-w.stop:
			return err
		case <-time.After(jittered(time.Second)): //resilint:ignore timeoutchain the fixture is about the bound
		}
	}
}

type client struct{ hc *http.Client }

func (c *client) shouldRetry(resp *http.Response, err error) (bool, error) {
	if err != nil {
		return true, err
	}
	return resp.StatusCode >= 500, nil
}

// A retry decided by a returned bool is a retry.
func (c *client) boolDecided(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		resp, err := c.hc.Do(req)
		retry, cerr := c.shouldRetry(resp, err)
		if !retry {
			return resp, cerr
		}
	}
	return nil, errors.New("gave up")
}

func ready(ctx context.Context) (bool, error) { return false, nil }

// A bool that decides nothing about an earlier operation: polling a
// condition, not a retry.
func poll(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		ok, err := ready(ctx)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
	return errors.New("not ready")
}
