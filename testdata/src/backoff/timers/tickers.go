package timers

import (
	"context"
	"math/rand/v2"
	"net"
	"time"
)

type opts struct {
	Reconnect     time.Duration
	MaxReconnects int
}

func dial(ctx context.Context) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "tcp", "db.internal:3301")
}

// reconnect waits on a ticker made before the loop: every pass waits the
// same configured interval. Reported, with no fix (a jitter drawn when
// the ticker is made would be the same for every pass).
func reconnect(ctx context.Context, o opts) (net.Conn, error) {
	t := time.NewTicker(o.Reconnect) // want `retry waits on a ticker of a fixed interval between attempts`
	defer t.Stop()
	for n := 0; o.MaxReconnects == 0 || n < o.MaxReconnects; n++ {
		c, err := dial(ctx)
		if err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	return nil, context.DeadlineExceeded
}

// reconnectReset resets the ticker to a jittered interval each pass: not
// a fixed interval, judged by the reset.
func reconnectReset(ctx context.Context, o opts) (net.Conn, error) {
	t := time.NewTicker(o.Reconnect)
	defer t.Stop()
	for n := 0; n < 5; n++ {
		c, err := dial(ctx)
		if err == nil {
			return c, nil
		}
		t.Reset(rand.N(o.Reconnect) + time.Millisecond)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	return nil, context.DeadlineExceeded
}

// poll reads on every tick whatever happens: no retry.
func poll(ctx context.Context, o opts, read func() error) {
	t := time.NewTicker(o.Reconnect)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = read()
		}
	}
}
