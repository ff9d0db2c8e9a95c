// Package discarded: a retry whose error the attempt drops cannot fail
// that attempt, so the retry around it does not go round on it: it nests
// in nothing.
package discarded

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	backoff "github.com/cenkalti/backoff/v4"
)

func call(ctx context.Context) error { return errors.New("down") }

func jittered(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

// connect retries on its own.
func connect(ctx context.Context, member string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

// watch reads the members a feed announces and connects to each,
// dropping what each connection ends with: it fails only when the feed
// does.
func watch(ctx context.Context, members <-chan string) error {
	for m := range members {
		_ = connect(ctx, m)
		connect(ctx, m)
		_ = backoff.Retry(func() error { return call(ctx) }, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
	}
	return call(ctx)
}

// Discover re-subscribes when the feed breaks. Not a nested retry.
func Discover(ctx context.Context, members <-chan string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = watch(ctx, members); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

// The near miss: the connection's failure fails the attempt.
func watchAll(ctx context.Context, members <-chan string) error {
	for m := range members {
		if err := connect(ctx, m); err != nil {
			return err
		}
	}
	return call(ctx)
}

func DiscoverAll(ctx context.Context, members <-chan string) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry`
		if err = watchAll(ctx, members); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}
