// Package clocks waits between attempts through a clock it is given, so
// that its tests can step time. The clock's waits are time's: a fixed
// second is as synchronized through k8s.io/utils/clock as through
// time.After. The near misses draw the delay, or wait through an
// interface of their own that no catalog row says is a clock: what it
// waits is not known, so it is not judged.
package clocks

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"k8s.io/utils/clock"
)

type store struct {
	clock clock.Clock
	n     int
}

func (s *store) put(ctx context.Context) error {
	s.n++
	if s.n%2 == 0 {
		return nil
	}
	return errors.New("unavailable")
}

// Put waits a fixed second on the clock: reported.
func (s *store) Put(ctx context.Context) error {
	for i := 0; ; i++ {
		err := s.put(ctx)
		if err == nil || i == 4 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.clock.After(time.Second): // want `retry delay has no jitter`
		}
	}
}

// PutSleep sleeps a fixed two seconds on the clock: reported.
func (s *store) PutSleep(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = s.put(ctx); err == nil {
			return nil
		}
		s.clock.Sleep(2 * time.Second) // want `retry delay has no jitter`
	}
	return err
}

// PutJittered draws the delay it waits on the clock: not reported.
func (s *store) PutJittered(ctx context.Context) error {
	for i := 0; ; i++ {
		err := s.put(ctx)
		if err == nil || i == 4 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.clock.After(rand.N(time.Second)):
		}
	}
}

// waiter is the package's own interface: a clock to the reader, but
// nothing says what its implementations wait.
type waiter interface {
	After(d time.Duration) <-chan time.Time
}

type paced struct {
	w waiter
	s *store
}

// Put waits through it: not judged.
func (p *paced) Put(ctx context.Context) error {
	for i := 0; ; i++ {
		err := p.s.put(ctx)
		if err == nil || i == 4 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.w.After(time.Second):
		}
	}
}
