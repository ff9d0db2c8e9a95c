// Package gates: a wait helper given a duration that bounds its wait as
// a timeout (it waits for a shared gate to open, and fails when the
// budget passes first) is not given the pause between attempts.
package gates

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"
)

var errBudget = errors.New("budget spent")

// Gate holds every caller back while the server asks for a pause.
type Gate struct {
	mu      sync.Mutex
	waiters []chan struct{}
	closed  bool
}

// Wait returns when the gate opens, fails when the budget passes first.
func (g *Gate) Wait(ctx context.Context, budget time.Duration) error {
	g.mu.Lock()
	if !g.closed {
		g.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	g.waiters = append(g.waiters, ch)
	g.mu.Unlock()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-ch:
		return nil
	case <-time.After(budget):
		return errBudget
	}
}

// Hold closes the gate; a timer of the gate's own opens it again.
func (g *Gate) Hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	time.AfterFunc(time.Second, g.open)
}

func (g *Gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = false
	for _, ch := range g.waiters {
		close(ch)
	}
	g.waiters = nil
}

// pause waits d, or less when ctx is done: d is the pause.
func pause(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// The duration given to the gate is what is left of the budget, not the
// pause (the gate's own timer holds the callers back): not reported.
func fetch(ctx context.Context, c *http.Client, g *Gate, req *http.Request) (*http.Response, error) {
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if err := g.Wait(ctx, time.Until(deadline)); err != nil {
			return nil, err
		}
		resp, err := c.Do(req.WithContext(ctx))
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			g.Hold()
			continue
		}
		return resp, nil
	}
}

// A helper whose timer is the pause itself, given a fixed one: reported.
func fetchPaced(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	var lastErr error
	for i := 0; i < 4; i++ {
		if i > 0 {
			if err := pause(ctx, 2*time.Second); err != nil { // want `retry delay has no jitter`
				return nil, err
			}
		}
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			err = errors.New(resp.Status)
		}
		lastErr = err
	}
	return nil, lastErr
}

// ready waits for the signal under a deadline of budget: budget bounds
// the wait, it is no pause.
func ready(ctx context.Context, signal <-chan struct{}, budget time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-signal:
		return nil
	}
}

// The budget given to a wait that bounds it with a context deadline is
// not the pause: not reported.
func fetchWhenReady(ctx context.Context, c *http.Client, signal <-chan struct{}, req *http.Request) (*http.Response, error) {
	for {
		if err := ready(ctx, signal, 30*time.Second); err != nil {
			return nil, err
		}
		resp, err := c.Do(req.WithContext(ctx))
		if err != nil {
			continue
		}
		return resp, nil
	}
}
