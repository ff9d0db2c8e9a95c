// Package fieldfuncs keeps its retry delay in a function field: judged by
// the functions the package stores there, when no one else can store one.
package fieldfuncs

import (
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

type client struct {
	hc    *http.Client
	delay func(n int) time.Duration
}

// newClient stores a linear delay with no random part; nothing else sets
// the field.
func newClient(hc *http.Client) *client {
	c := &client{hc: hc}
	if c.delay == nil {
		c.delay = func(n int) time.Duration { return time.Duration(n) * time.Second }
	}
	return c
}

func (c *client) send(req *http.Request) (*http.Response, error) {
	for n := 1; n <= 3; n++ {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(c.delay(n)) // want `retry delay has no jitter`
	}
	return nil, errors.New("giving up")
}

type spread struct {
	hc    *http.Client
	delay func(n int) time.Duration
}

func jittered(n int) time.Duration {
	return time.Duration(rand.Int64N(int64(n) * int64(time.Second)))
}

// newSpread stores a function that draws the delay at random.
func newSpread(hc *http.Client) *spread { return &spread{hc: hc, delay: jittered} }

func (c *spread) send(req *http.Request) (*http.Response, error) {
	for n := 1; n <= 3; n++ {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(c.delay(n))
	}
	return nil, errors.New("giving up")
}

type configurable struct {
	hc    *http.Client
	delay func(n int) time.Duration
}

// Option configures a configurable client.
type Option func(*configurable)

// WithDelay lets the caller choose the delay: the package cannot tell what
// the field holds.
func WithDelay(f func(n int) time.Duration) Option {
	return func(c *configurable) { c.delay = f }
}

func newConfigurable(hc *http.Client, opts ...Option) *configurable {
	c := &configurable{hc: hc, delay: func(n int) time.Duration { return time.Second }}
	for _, o := range opts {
		o(c)
	}
	return c
}

func (c *configurable) send(req *http.Request) (*http.Response, error) {
	for n := 1; n <= 3; n++ {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(c.delay(n))
	}
	return nil, errors.New("giving up")
}
