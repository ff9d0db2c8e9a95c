package closures

import (
	"context"
	"time"
)

// claimWaited runs the retry in a goroutine but waits for what it sends:
// the goroutine's sleep keeps a caller who gave up.
func (s *scheduler) claimWaited(ctx context.Context, j job) error {
	errc := make(chan error, 1)
	go func() {
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			if err = s.claim(ctx, j); err == nil {
				break
			}
			time.Sleep(500 * time.Millisecond) // want `the retry loop waits without watching ctx`
		}
		errc <- err
	}()
	return <-errc
}

// Near miss: the goroutine's outcome goes to the caller, on the channel
// returned; this function does not wait for it.
func (s *scheduler) claimAsync(ctx context.Context, j job) <-chan error {
	errc := make(chan error, 1)
	go func() {
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			if err = s.claim(context.WithoutCancel(ctx), j); err == nil {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		errc <- err
	}()
	return errc
}

// Near miss: the function waits for another channel, a start signal sent
// before the retry.
func (s *scheduler) claimStarted(ctx context.Context, j job) {
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		close(started)
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			if err = s.claim(context.WithoutCancel(ctx), j); err == nil {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		done <- err
	}()
	<-started
}
