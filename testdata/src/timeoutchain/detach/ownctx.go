package detach

import (
	"context"
	"time"
)

// leaderCtx is a context type made to order: it ends when the node stops
// leading (lost is closed) or its parent is done. Its Done is its own.
type leaderCtx struct {
	parent context.Context
	lost   <-chan struct{}
	done   chan struct{}
}

func newLeaderCtx(parent context.Context, lost <-chan struct{}) *leaderCtx {
	c := &leaderCtx{parent: parent, lost: lost, done: make(chan struct{})}
	go func() {
		select {
		case <-c.lost:
		case <-c.parent.Done():
		}
		close(c.done)
	}()
	return c
}

func (c *leaderCtx) Deadline() (time.Time, bool) { return c.parent.Deadline() }
func (c *leaderCtx) Done() <-chan struct{}       { return c.done }
func (c *leaderCtx) Err() error                  { return c.parent.Err() }
func (c *leaderCtx) Value(k any) any             { return c.parent.Value(k) }

type node struct{ lost chan struct{} }

func (n *node) leaderContext(ctx context.Context) context.Context {
	return newLeaderCtx(ctx, n.lost)
}

// lead runs the leader's work under a context whose end its own type
// decides, as a literal of that type would: not reported.
func (n *node) lead(ctx context.Context) error {
	lctx := n.leaderContext(context.Background())
	go func() { _ = call(lctx) }()
	<-ctx.Done()
	return ctx.Err()
}

// labelled carries a label and keeps its parent's Done (embedded): it
// ends when its parent does.
type labelled struct {
	context.Context
	label string
}

func newLabelled(parent context.Context, label string) *labelled {
	return &labelled{Context: parent, label: label}
}

// labelledCall gives the work a Background that never ends: reported.
func labelledCall(ctx context.Context) error {
	return call(newLabelled(context.Background(), "sync")) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}
