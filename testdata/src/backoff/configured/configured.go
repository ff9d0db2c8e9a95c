// Package configured: waits of a configured delay.
package configured

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

func call(ctx context.Context) error { return errors.New("down") }

type RetryConfig struct {
	Max     int
	Backoff time.Duration
	// BackoffFunc, when set, computes the delay.
	BackoffFunc func(attempt int) time.Duration
}

type Config struct{ Retry RetryConfig }

type client struct {
	conf  Config
	pause time.Duration // set per client from a random draw
}

func newClient(conf Config) *client {
	return &client{conf: conf, pause: time.Duration(rand.Int64N(int64(time.Second)))}
}

// A configured delay is the same for every retry of every client with
// that configuration, whatever its value: no jitter.
func (c *client) do(ctx context.Context) error {
	var err error
	for i := 0; i <= c.conf.Retry.Max; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.conf.Retry.Backoff): // want `retry delay has no jitter`
		}
	}
	return err
}

// Near miss: a delay function from the configuration may jitter.
func (c *client) doFunc(ctx context.Context) error {
	var err error
	for i := 0; i <= c.conf.Retry.Max; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.conf.Retry.BackoffFunc(i)):
		}
	}
	return err
}

// Near miss: a field the package sets from a random draw.
func (c *client) doPause(ctx context.Context) error {
	var err error
	for i := 0; i <= c.conf.Retry.Max; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.pause):
		}
	}
	return err
}

func (c *client) minDelay() time.Duration { return 100 * time.Millisecond }

func grow(n int, min, max time.Duration) time.Duration {
	d := time.Duration(n*n) * min
	if d > max {
		d = max
	}
	return d
}

// A helper method's value, grown by a package function with no random
// draw: the receiver it is called on adds nothing random.
func (c *client) doGrowing(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(grow(i, c.minDelay(), time.Second)): // want `retry delay has no jitter`
			}
		}
		if err = call(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Config returns the client's configuration: a getter.
func (c *client) Config() *Config { return &c.conf }

// A configured delay read through the getter: no jitter.
func (c *client) doGetter(ctx context.Context) error {
	var err error
	for i := 0; i <= c.Config().Retry.Max; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.Config().Retry.Backoff): // want `retry delay has no jitter`
		}
	}
	return err
}

// pauseHolder returns the client itself, whose pause is drawn at random:
// the field read through it is no configured number.
func (c *client) pauseHolder() *client { return c }

// Near miss: through the getter to the field drawn at random.
func (c *client) doGetterPause(ctx context.Context) error {
	var err error
	for i := 0; i <= c.conf.Retry.Max; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.pauseHolder().pause):
		}
	}
	return err
}

// Near miss: a method given an argument is no getter; what it returns
// may depend on it, and is not followed.
func (c *client) configFor(attempt int) *Config { return &c.conf }

func (c *client) doConfigFor(ctx context.Context) error {
	var err error
	for i := 0; i <= c.conf.Retry.Max; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.configFor(i).Retry.Backoff):
		}
	}
	return err
}
