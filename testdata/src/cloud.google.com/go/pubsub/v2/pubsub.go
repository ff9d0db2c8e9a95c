// Package pubsub is a stub of Google Cloud Pub/Sub's v2 client for
// tests: a subscriber's Receive runs until its context is done, then
// returns nil.
package pubsub

import (
	"context"
	"errors"
)

type Message struct {
	ID   string
	Data []byte
}

func (m *Message) Ack() {}

type Subscriber struct {
	name string
	c    *Client
}

// Client talks to the service.
type Client struct {
	pull func(ctx context.Context, sub string) ([]*Message, error)
}

func (c *Client) Subscriber(name string) *Subscriber { return &Subscriber{name: name, c: c} }

func (s *Subscriber) Receive(ctx context.Context, f func(context.Context, *Message)) error {
	for {
		msgs, err := s.c.pull(ctx, s.name)
		if errors.Is(err, context.Canceled) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, m := range msgs {
			f(ctx, m)
		}
	}
}
