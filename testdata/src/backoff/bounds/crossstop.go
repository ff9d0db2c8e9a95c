package bounds

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"backoff/bounds/sleepbudget"
)

var splitPause = &sleepbudget.Policy{Name: "split", Wait: func(ctx context.Context) time.Duration {
	d := rand.N(200 * time.Millisecond)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	return d
}}

func split(ctx context.Context) error { return dialOnce() }

// The backoffer of another package, given the failure's text, ends the
// loop with its error once its context is done (its StopWaitFact) or its
// budget is spent: bounded.
func splitAll(bo *sleepbudget.Backoffer) error {
	for {
		err := split(bo.Ctx())
		if err == nil {
			return nil
		}
		if berr := bo.Backoff(splitPause, errors.New(err.Error())); berr != nil {
			return berr
		}
	}
}

// Near miss: the loop drops the backoffer's answer, so nothing it says
// ends the loop.
func splitAllDropped(bo *sleepbudget.Backoffer) error {
	for { // want `retry loop has no bound`
		err := split(bo.Ctx())
		if err == nil {
			return nil
		}
		bo.Backoff(splitPause, errors.New(err.Error()))
	}
}
