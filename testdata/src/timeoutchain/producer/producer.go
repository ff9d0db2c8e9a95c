// Package producer: a context derived from Background and cancelled when
// the function returns, given only to a producer of ticks that the
// function consumes while it watches the caller's context. The caller's
// cancellation ends the function, and with it the producer: nothing is
// dropped.
package producer

import (
	"context"
	"errors"
	"time"
)

var errTimeout = errors.New("timed out")

// ticks sends on the channel every d until ctx is done.
func ticks(ctx context.Context, d time.Duration) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		defer close(c)
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				select {
				case c <- struct{}{}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return c
}

func check(ctx context.Context) (bool, error) { return true, nil }

// Until polls check on every tick until it holds or ctx is done: nothing
// reported.
func Until(ctx context.Context, every time.Duration) error {
	tickCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := ticks(tickCtx, every)
	for {
		select {
		case _, open := <-c:
			ok, err := check(ctx)
			if err != nil || ok {
				return err
			}
			if !open {
				return errTimeout
			}
		case <-ctx.Done():
			return errTimeout
		}
	}
}

func fetch(ctx context.Context) error { return nil }

// Fetch gives the derived context to a call that runs until done: the
// caller's cancellation does not stop it. Reported.
func Fetch(ctx context.Context) error {
	fetchCtx, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	defer cancel()
	return fetch(fetchCtx)
}

// UntilTick does not watch the caller's context while it consumes the
// ticks: reported.
func UntilTick(ctx context.Context, every time.Duration) error {
	tickCtx, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	defer cancel()
	for range ticks(tickCtx, every) {
		if ok, err := check(ctx); err != nil || ok {
			return err
		}
	}
	return errTimeout
}
