package recursion

import (
	"context"
	"errors"
	"time"
)

var errAlreadyOpen = errors.New("already open")

// gateway is a long-lived connection that its own reconnect loop
// reopens. Opening it may hand a "reconnect" event to the handler, which
// runs the same reconnect loop: an attempt that reaches its own retry is
// a recursion, not a retry nested in another.
type gateway struct {
	open    bool
	nextOp  int
	backoff time.Duration
}

func (g *gateway) handshake(ctx context.Context) (int, error) {
	g.nextOp++
	return g.nextOp % 8, nil
}

// Open opens the connection and handles the first event.
func (g *gateway) Open(ctx context.Context) error {
	if g.open {
		return errAlreadyOpen
	}
	op, err := g.handshake(ctx)
	if err != nil {
		return err
	}
	g.onEvent(ctx, op)
	g.open = true
	return nil
}

func (g *gateway) onEvent(ctx context.Context, op int) {
	if op == 7 {
		g.reconnect(ctx)
	}
}

// reconnect reopens the gateway until it is open, for as long as it
// takes (a long-lived connection): its attempts reach reconnect itself
// through Open and onEvent. Not a nested retry.
func (g *gateway) reconnect(ctx context.Context) {
	wait := time.Second
	for {
		err := g.Open(ctx)
		if err == nil || err == errAlreadyOpen {
			return
		}
		time.Sleep(jittered(wait))
		wait = min(2*wait, 10*time.Minute)
	}
}

// Resume dials three times, each through dialAll's own loop: a retry
// around another retry, nested.
func (g *gateway) Resume(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching \(\*gateway\).dialAll`
		if err = g.dialAll(ctx); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

// dialAll tries the handshake five times.
func (g *gateway) dialAll(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if _, err = g.handshake(ctx); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}
