// Package events converts messages to events; its conversions take a
// context they never read, and hand it on only to one another.
package events

import (
	"context"
	"errors"
)

type Message struct{ Body []byte }

type Event struct{ Data []byte }

// ToEvent takes a context for symmetry with the writers; it reads none.
func ToEvent(ctx context.Context, m *Message) (*Event, error) {
	return convert(ctx, m)
}

func convert(ctx context.Context, m *Message) (*Event, error) {
	if m == nil {
		return nil, errors.New("no message")
	}
	return &Event{Data: m.Body}, nil
}

// Deliver stops when its context is done.
func Deliver(ctx context.Context, e *Event) error {
	return ctx.Err()
}
