// Package twowaits: one retry that waits in two places with the same
// problem is one finding.
package twowaits

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var errBusy = errors.New("busy")

func call(ctx context.Context) error { return errBusy }

func twoWaits(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if errors.Is(err, errBusy) {
			time.Sleep(2 * time.Second) // want `retry delay has no jitter`
			continue
		}
		time.Sleep(time.Second)
	}
	return err
}

// Two waits with different problems stay two findings: one without jitter,
// one that grows exponentially with no cap (jittered).
func differentProblems(ctx context.Context) error {
	var err error
	for i := 0; i < 10; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if errors.Is(err, errBusy) {
			time.Sleep(time.Duration(rand.Int64N(int64(time.Second) << i))) // want `retry delay grows exponentially with no cap`
			continue
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return err
}
