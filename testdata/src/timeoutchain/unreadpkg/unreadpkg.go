// Package unreadpkg gives context.Background() to functions of another
// package: one that never reads its context (its UnreadFact), and the near
// miss, one that does.
package unreadpkg

import (
	"context"

	"timeoutchain/unreadpkg/events"
)

func Convert(ctx context.Context, m *events.Message) (*events.Event, error) {
	return events.ToEvent(context.Background(), m)
}

func Deliver(ctx context.Context, e *events.Event) error {
	return events.Deliver(context.Background(), e) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}
