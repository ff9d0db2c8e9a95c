package resume

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Loops that wait at the top of every pass, after a success as after a
// failure: a poll. When a failure gives that wait's duration a value of
// its own, the failure's wait is a retry delay, judged where the failure
// sets it.

type lease struct {
	TTL string
}

type leases interface {
	Renew(ctx context.Context, id string) (*lease, error)
}

var errLeaseGone = errors.New("lease gone")

// keepLease renews half-way through the lease's TTL, which the server
// may change; a failed renewal is tried again a fixed second later, on
// every client whose renewal failed in the same outage: reported where
// the failure sets its wait.
func keepLease(ctx context.Context, c leases, id, ttl string) error {
	d, err := time.ParseDuration(ttl)
	if err != nil {
		return err
	}
	wait := d / 2
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		l, err := c.Renew(ctx, id)
		if err != nil {
			wait = time.Second // want `retry delay has no jitter`
			continue
		}
		if l == nil {
			return errLeaseGone
		}
		d, _ = time.ParseDuration(l.TTL)
		wait = d / 2
	}
}

// keepLeaseDoubling doubles its failure wait up to a minute, with no
// random part, through a timer reset at the top: reported.
func keepLeaseDoubling(ctx context.Context, c leases, id string, every time.Duration) error {
	wait, failWait := every, time.Second
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		if _, err := c.Renew(ctx, id); err != nil {
			wait = failWait // want `retry delay has no jitter`
			failWait = min(failWait*2, time.Minute)
			timer.Reset(wait)
			continue
		}
		wait, failWait = every, time.Second
		timer.Reset(wait)
	}
}

// keepLeaseJittered draws its failure wait at random: not reported.
func keepLeaseJittered(ctx context.Context, c leases, id string, every time.Duration) error {
	wait := every
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		if _, err := c.Renew(ctx, id); err != nil {
			wait = rand.N(2 * time.Second)
			continue
		}
		wait = every
	}
}

// heartbeat waits five seconds after an answer and, after a failure,
// the same wait it last had: a failure gives the wait no value of its
// own, so the loop is a poll. Not reported.
func heartbeat(ctx context.Context, c leases, id string) {
	wait := time.Second
	failures := 0
	for failures < 5 {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if _, err := c.Renew(ctx, id); err != nil {
			failures++
			continue
		}
		wait, failures = 5*time.Second, 0
	}
}

// pollEvery gives its wait the same value after a failure as after a
// success: a poll at its interval either way. Not reported.
func pollEvery(ctx context.Context, c leases, id string, every time.Duration) {
	var wait time.Duration
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if _, err := c.Renew(ctx, id); err != nil {
			wait = every
			continue
		}
		wait = every
	}
}
