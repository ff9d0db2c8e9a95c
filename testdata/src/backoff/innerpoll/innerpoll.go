// Package innerpoll: a retry whose attempt registers a resource and then
// polls until the registration completes. The poll's wait paces the poll,
// inside one attempt; it is no delay between the retry's attempts.
package innerpoll

import (
	"context"
	"errors"
	"time"
)

type provider struct{ state string }

type client struct {
	every time.Duration
	pause time.Duration
}

func (c *client) send(ctx context.Context) error     { return errors.New("not registered") }
func (c *client) register(ctx context.Context) error { return nil }

func (c *client) get(ctx context.Context) (*provider, error) {
	return &provider{state: "Registered"}, nil
}

// Do registers on a failure and waits, polling at a fixed cadence, until
// the registration completes, then sends again: nothing reported.
func (c *client) Do(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.send(ctx); err == nil {
			return nil
		}
		if err := c.register(ctx); err != nil {
			return err
		}
		for {
			p, err := c.get(ctx)
			if err != nil {
				return err
			}
			if p.state == "Registered" {
				break
			}
			select {
			case <-time.After(c.every):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return err
}

// DoPaused also waits a fixed pause between its own attempts, outside the
// poll: that wait is the retry's delay, and it has no jitter.
func (c *client) DoPaused(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.send(ctx); err == nil {
			return nil
		}
		for {
			p, err := c.get(ctx)
			if err != nil {
				return err
			}
			if p.state == "Registered" {
				break
			}
			select {
			case <-time.After(c.every):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		select {
		case <-time.After(c.pause): // want `retry delay has no jitter`
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return err
}
