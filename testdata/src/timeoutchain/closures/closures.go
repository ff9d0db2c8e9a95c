// Package closures: a retry inside a closure that runs in place waits
// under the enclosing function's context.
package closures

import (
	"context"
	"errors"
	"time"
)

type job struct{ id string }

type scheduler struct {
	retryLater func() error
}

func (s *scheduler) claim(ctx context.Context, j job) error { return errors.New("down") }

// The closure is called here, and its attempts use ctx: its sleep keeps
// a caller who gave up.
func (s *scheduler) claimAll(ctx context.Context, jobs []job) error {
	claimOne := func(j job) error {
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			if err = s.claim(ctx, j); err == nil {
				return nil
			}
			time.Sleep(500 * time.Millisecond) // want `the retry loop waits without watching ctx`
		}
		return err
	}
	for _, j := range jobs {
		if err := claimOne(j); err != nil {
			return err
		}
	}
	return nil
}

// Near miss: the closure runs in a goroutine of its own, meant to outlive
// the call.
func (s *scheduler) claimLater(ctx context.Context, j job) {
	go func() {
		for attempt := 0; attempt < 3; attempt++ {
			if err := s.claim(context.WithoutCancel(ctx), j); err == nil {
				return
			}
			time.Sleep(500 * time.Millisecond)
		}
	}()
}

// Near miss: the closure is stored, to run later.
func (s *scheduler) keep(ctx context.Context, j job) {
	s.retryLater = func() error {
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			if err = s.claim(context.Background(), j); err == nil {
				return nil
			}
			time.Sleep(500 * time.Millisecond)
		}
		return err
	}
}

// Near miss: a deferred cleanup retries under a context of its own on
// purpose, after the caller may have given up.
func (s *scheduler) claimAndRelease(ctx context.Context, j job) error {
	defer func() {
		for attempt := 0; attempt < 3; attempt++ {
			if err := s.claim(context.Background(), j); err == nil {
				return
			}
			time.Sleep(500 * time.Millisecond)
		}
	}()
	return s.claim(ctx, j)
}
