package bounds

import (
	"context"
	"log"

	"cloud.google.com/go/pubsub"
)

type consumer struct {
	sub  *pubsub.Subscription
	stop chan struct{}
}

func (c *consumer) handle(ctx context.Context, m *pubsub.Message) { m.Ack() }

// Receive returns nil once the context Stop cancels is done, and the
// loop leaves on nil: bounded by that context. It goes round at once on
// an error, though.
func (c *consumer) Consume() {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-c.stop
		cancel()
	}()
	for { // want `retry loop tries again at once`
		err := c.sub.Receive(ctx, c.handle)
		if err == nil {
			break
		}
		log.Printf("receive: %v", err)
	}
}

// source is any subscription: what its Receive does when the context is
// done is unknown.
type source interface {
	Receive(ctx context.Context, f func(context.Context, *pubsub.Message)) error
}

// The near miss: no bound is known.
func consumeAny(src source, stop chan struct{}, handle func(context.Context, *pubsub.Message)) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-stop
		cancel()
	}()
	for { // want `retry loop tries again at once` `retry loop has no bound`
		err := src.Receive(ctx, handle)
		if err == nil {
			break
		}
		log.Printf("receive: %v", err)
	}
}
