// Package schedules: a retry that ranges over a schedule of delays waits
// each of them in turn; a schedule of constants has no jitter. Ranging
// over other items is no retry.
package schedules

import (
	"context"
	"math/rand/v2"
	"time"
)

var backoffSchedule = []time.Duration{time.Second, 3 * time.Second, 10 * time.Second}

type sender interface {
	Send(ctx context.Context, msg []byte) error
}

func Deliver(ctx context.Context, s sender, msg []byte) error {
	err := s.Send(ctx, msg)
	for _, d := range backoffSchedule {
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d): // want `retry delay has no jitter`
		}
		err = s.Send(ctx, msg)
	}
	return err
}

// The near miss: each delay of the schedule is drawn at random below its
// step.
func DeliverJittered(ctx context.Context, s sender, msg []byte) error {
	err := s.Send(ctx, msg)
	for _, d := range backoffSchedule {
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(d)):
		}
		err = s.Send(ctx, msg)
	}
	return err
}

type peer interface {
	Send(ctx context.Context, addr string, msg []byte) error
}

// The near miss: ranging over addresses tries each once, a fail-over.
func DeliverAny(ctx context.Context, p peer, addrs []string, msg []byte) error {
	var err error
	for _, a := range addrs {
		if err = p.Send(ctx, a, msg); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
