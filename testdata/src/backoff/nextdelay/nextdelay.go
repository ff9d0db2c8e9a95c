// Package nextdelay waits a backoff library's next delay in hand-written
// loops (jpillora/backoff's Duration, cenkalti's NextBackOff, wait.Backoff's
// Step): the catalog gives the shape of the waits, the value's jitter
// field their randomness.
package nextdelay

import (
	"context"
	"errors"
	"net"
	"time"

	cenkalti "github.com/cenkalti/backoff/v4"
	"github.com/jpillora/backoff"
	"k8s.io/apimachinery/pkg/util/wait"
)

var errBusy = errors.New("busy")

func dial(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "tcp", addr)
}

// redial reconnects forever through a jpillora backoff that leaves Jitter
// out: growing to a cap (no bound is its design), but in step.
func redial(ctx context.Context, addr string) (net.Conn, error) {
	b := &backoff.Backoff{Min: 100 * time.Millisecond, Max: 10 * time.Second, Factor: 1.8}
	for {
		c, err := dial(ctx, addr)
		if err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(b.Duration()): // want `retry delay has no jitter: the backoff.Backoff that b.Duration\(\) steps leaves Jitter out, so its waits have no random part`
		}
	}
}

// redialFalse writes Jitter: false.
func redialFalse(ctx context.Context, addr string) (net.Conn, error) {
	b := &backoff.Backoff{
		Min:    100 * time.Millisecond,
		Max:    10 * time.Second,
		Jitter: false,
	}
	for {
		c, err := dial(ctx, addr)
		if err == nil {
			return c, nil
		}
		delay := b.Duration()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay): // want `retry delay has no jitter: the backoff.Backoff that b.Duration\(\) steps sets Jitter to false`
		}
	}
}

// expo waits a cenkalti exponential backoff literal that leaves
// RandomizationFactor out (0: no random part), five times.
func expo(addr string) (net.Conn, error) {
	b := &cenkalti.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, MaxInterval: time.Minute}
	var err error
	for range 5 {
		var c net.Conn
		if c, err = dial(context.Background(), addr); err == nil {
			return c, nil
		}
		time.Sleep(b.NextBackOff()) // want `retry delay has no jitter: the cenkalti.ExponentialBackOff that b.NextBackOff\(\) steps leaves RandomizationFactor out, .*set RandomizationFactor to 0.5`
	}
	return nil, err
}

// constant waits a constant backoff through the BackOff interface.
func constant(addr string) (net.Conn, error) {
	var b cenkalti.BackOff = cenkalti.NewConstantBackOff(time.Second)
	var err error
	for range 5 {
		var c net.Conn
		if c, err = dial(context.Background(), addr); err == nil {
			return c, nil
		}
		time.Sleep(b.NextBackOff()) // want `retry delay has no jitter: clients that failed together retry together`
	}
	return nil, err
}

// stepped waits a wait.Backoff that leaves Jitter out.
func stepped(addr string) (net.Conn, error) {
	b := wait.Backoff{Duration: time.Second, Factor: 2, Steps: 5, Cap: time.Minute}
	var err error
	for range 5 {
		var c net.Conn
		if c, err = dial(context.Background(), addr); err == nil {
			return c, nil
		}
		time.Sleep(b.Step()) // want `retry delay has no jitter: the wait.Backoff that b.Step\(\) steps leaves Jitter out`
	}
	return nil, err
}

// Near misses.

// jittered sets Jitter: true.
func jittered(ctx context.Context, addr string) (net.Conn, error) {
	b := &backoff.Backoff{Min: 100 * time.Millisecond, Max: 10 * time.Second, Jitter: true}
	for {
		c, err := dial(ctx, addr)
		if err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(b.Duration()):
		}
	}
}

// jitterLater sets Jitter after the literal.
func jitterLater(ctx context.Context, addr string) (net.Conn, error) {
	b := &backoff.Backoff{Min: 100 * time.Millisecond, Max: 10 * time.Second}
	b.Jitter = true
	for {
		c, err := dial(ctx, addr)
		if err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(b.Duration()):
		}
	}
}

// configured takes the jitter from its caller: not known here.
func configured(ctx context.Context, addr string, jitter bool) (net.Conn, error) {
	b := &backoff.Backoff{Min: 100 * time.Millisecond, Max: 10 * time.Second, Jitter: jitter}
	for {
		c, err := dial(ctx, addr)
		if err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(b.Duration()):
		}
	}
}

// given waits a backoff its caller made: its jitter is judged at the
// callers (resume), and it runs through an outage by design — it grows
// to a cap — so no bound is reported.
func given(b *backoff.Backoff, addr string) net.Conn {
	for {
		c, err := dial(context.Background(), addr)
		if err == nil {
			return c
		}
		time.Sleep(b.Duration())
	}
}

// resume hands given a backoff that sets Jitter false: the retry in given
// steps it, and its jitter is known here.
func resume(addr string) net.Conn {
	b := &backoff.Backoff{Min: 100 * time.Millisecond, Max: 10 * time.Second, Jitter: false}
	return given(b, addr) // want `retry delay has no jitter: given waits the Duration of this backoff.Backoff between the attempts of its retry loop at nextdelay.go:\d+, and it sets Jitter to false`
}

// resumeJittered hands it a jittered one: silent.
func resumeJittered(addr string) net.Conn {
	return given(&backoff.Backoff{Min: time.Second, Max: time.Minute, Jitter: true}, addr)
}

// defaults waits cenkalti's default exponential backoff, which randomizes.
func defaults(addr string) (net.Conn, error) {
	b := cenkalti.NewExponentialBackOff()
	var err error
	for range 5 {
		var c net.Conn
		if c, err = dial(context.Background(), addr); err == nil {
			return c, nil
		}
		time.Sleep(b.NextBackOff())
	}
	return nil, err
}

// polled waits between polls of a job that is not done yet: not a retry.
func polled(ctx context.Context, done func() bool) {
	b := &backoff.Backoff{Min: time.Second, Max: time.Minute}
	for !done() {
		time.Sleep(b.Duration())
	}
}

var _ = errBusy
