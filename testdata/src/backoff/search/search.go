// Package search: loops that move through candidates (the next port) are
// searches, not retries of one request.
package search

import (
	"context"
	"errors"
	"time"
)

type Config struct{ Port int }

var errPortTaken = errors.New("port taken")

func create(ctx context.Context, cfg Config) error            { return errPortTaken }
func createMap(ctx context.Context, cfg map[string]any) error { return errPortTaken }

func withPort(ctx context.Context, cfg Config) (int, error) {
	port := cfg.Port
	for attempt := 0; attempt < 100; attempt++ {
		cfg.Port = port
		err := create(ctx, cfg)
		if err == nil {
			return port, nil
		}
		if !errors.Is(err, errPortTaken) {
			return 0, err
		}
		port++
	}
	return 0, errors.New("no free port")
}

func withMap(ctx context.Context, cfg map[string]any) (int, error) {
	var port int
	switch p := cfg["port"].(type) {
	case int:
		port = p
	default:
		return 0, errors.New("bad port")
	}
	for attempt := 0; attempt < 100; attempt++ {
		cfg["port"] = port
		err := createMap(ctx, cfg)
		if err == nil {
			return port, nil
		}
		if !errors.Is(err, errPortTaken) {
			return 0, err
		}
		port++
	}
	return 0, errors.New("no free port")
}

type Req struct{ Attempt int }

func send(ctx context.Context, r Req) error { return errPortTaken }

// The near miss: an attempt number written into the request is no new
// request; the loop retries at once.
func withAttempt(ctx context.Context) error {
	var r Req
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop tries again at once after a failure`
		r.Attempt = attempt
		if err := send(ctx, r); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func sendN(ctx context.Context, attempt int) error { return errPortTaken }

// The near miss: a counter declared with its zero value is an attempt
// number too.
func withZeroCounter(ctx context.Context) error {
	var attempt int
	for { // want `retry loop tries again at once after a failure`
		if err := sendN(ctx, attempt); err == nil {
			return nil
		}
		attempt++
		if attempt == 3 {
			return errors.New("gave up")
		}
	}
}

type store struct{}

var errGone = errors.New("gone")

func (store) first() (uint64, error) { return 1, nil }
func (store) get(idx uint64) error   { return errGone }

// The oldest entry, while another goroutine truncates: each pass reads
// the first index again and gives up when it has not moved since the
// failure, so no pass repeats a failed read.
func oldest(s store) (uint64, error) {
	var lastFailed uint64
	var lastErr error
	for {
		idx, err := s.first()
		if err != nil {
			return 0, err
		}
		if idx == lastFailed {
			return 0, lastErr
		}
		if err = s.get(idx); err == nil {
			return idx, nil
		}
		lastFailed, lastErr = idx, err
	}
}

// The near miss: the failed input is remembered but never compared, so
// the same read is tried again at once.
func oldestAgain(s store) (uint64, error) {
	var lastFailed uint64
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		idx, err := s.first()
		if err != nil {
			return 0, err
		}
		if err = s.get(idx); err == nil {
			return idx + lastFailed - lastFailed, nil
		}
		lastFailed = idx
	}
	return 0, errGone
}

type mode int

type thread struct {
	link  mode
	tries int
}

type request struct{ link mode }

func call(ctx context.Context, r request) error { return errGone }

func (t *thread) plan() request { return request{link: t.link} }

// recovers switches the thread to another mode on the errors that a new
// mode answers.
func (t *thread) recovers(err error) bool {
	if t.link == 0 {
		t.link = 1
		return true
	}
	return false
}

// A fallback: the failure switches the state the next request is made
// from, so each pass sends a different request.
func (t *thread) send(ctx context.Context) error {
	for {
		err := call(ctx, t.plan())
		if err == nil {
			return nil
		}
		if !t.recovers(err) {
			return err
		}
	}
}

func (t *thread) note() { t.tries = t.tries + 1 }

func (t *thread) delay() time.Duration { return time.Duration(t.tries) * time.Second }

// The near miss: a count kept in a field, read back for the delay,
// changes no request: a retry, without jitter.
func (t *thread) sendCounted(ctx context.Context) error {
	var err error
	r := request{}
	for i := 0; i < 3; i++ {
		if err = call(ctx, r); err == nil {
			return nil
		}
		t.note()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(t.delay()): // want `retry delay has no jitter`
		}
	}
	return err
}
