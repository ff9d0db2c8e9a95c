// Package ownwaits: a wait function given only an attempt number (and a
// context) waits a delay of its own; when that delay has no random part,
// calling it between attempts is a wait without jitter, in this package
// or another. Near misses draw a random part, or take their delay from a
// value they are given.
package ownwaits

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"backoff/waithelpers"
)

type client struct {
	base time.Duration
}

func (c *client) call() error { return errors.New("down") }

// backoff doubles the configured base with each attempt.
func (c *client) backoff(attempt int) {
	time.Sleep(c.base << attempt)
}

func (c *client) Do() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.call(); err == nil {
			return nil
		}
		c.backoff(i) // want `retry delay has no jitter: \(\*client\)\.backoff computes its wait with no random part`
	}
	return err
}

// Through a helper of another package, known by its fact.
func (c *client) DoElsewhere(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.call(); err == nil {
			return nil
		}
		if werr := waithelpers.Step(ctx, i); werr != nil { // want `retry delay has no jitter: waithelpers\.Step computes its wait`
			return werr
		}
	}
	return err
}

// jittered draws a random part of the doubled base: silent.
func (c *client) jittered(attempt int) {
	time.Sleep(time.Duration(rand.Int64N(int64(c.base << attempt))))
}

func (c *client) DoJittered() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.call(); err == nil {
			return nil
		}
		c.jittered(i)
	}
	return err
}

// The helper of another package spreads its step: silent.
func (c *client) DoSpread(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.call(); err == nil {
			return nil
		}
		if werr := waithelpers.StepSpread(ctx, i); werr != nil {
			return werr
		}
	}
	return err
}

// afterHeader takes its delay from the response it is given (the
// server's word): what it waits is not the helper's own choice.
func afterHeader(resp *http.Response, attempt int) {
	secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	time.Sleep(time.Duration(secs+attempt) * time.Second)
}

func get(c *http.Client, url string) (*http.Response, error) {
	var last error
	for i := 0; i < 3; i++ {
		resp, err := c.Get(url)
		if err != nil {
			last = err
			continue
		}
		if resp.StatusCode == http.StatusServiceUnavailable {
			resp.Body.Close()
			last = errors.New(resp.Status)
			afterHeader(resp, i)
			continue
		}
		return resp, nil
	}
	return nil, last
}

// A closure in a local variable, given the attempt number, waits a delay
// of its own with no random part.
func (c *client) DoClosure() error {
	wait := func(n int) { time.Sleep(time.Duration(n) * 200 * time.Millisecond) }
	var err error
	for n := 1; n <= 5; n++ {
		if err = c.call(); err == nil {
			return nil
		}
		wait(n) // want `retry delay has no jitter: wait computes its wait with no random part`
	}
	return err
}

// The near miss: the closure draws a random part. It waits all the same:
// no "tries again at once" either.
func (c *client) DoClosureJittered() error {
	wait := func(n int) { time.Sleep(rand.N(time.Duration(n) * 200 * time.Millisecond)) }
	var err error
	for n := 1; n <= 5; n++ {
		if err = c.call(); err == nil {
			return nil
		}
		wait(n)
	}
	return err
}
