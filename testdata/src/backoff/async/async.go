// Package async: an attempt run in a goroutine whose outcome arrives on a
// channel is an attempt all the same; a goroutine whose channel carries
// the results of different inputs is not.
package async

import (
	"context"
	"errors"
	"time"
)

// Each pass starts the operation in a goroutine, waits for its error or
// the context, then waits a fixed second and starts it again.
func withDeadlineGuard(ctx context.Context, op func() error) error {
	done := make(chan error, 1)
	for range 4 {
		go func() { done <- op() }()
		select {
		case err := <-done:
			if err == nil {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // want `retry delay has no jitter`
		}
	}
	return errors.New("out of attempts")
}

type shards struct{ names []string }

func (s *shards) load(name string) error { return nil }

// Near miss: each goroutine loads another shard (the index advances), so
// the errors received are outcomes of different requests.
func (s *shards) loadAll() error {
	errc := make(chan error, 1)
	for i := 0; i < len(s.names); i++ {
		go func() { errc <- s.load(s.names[i]) }()
		if err := <-errc; err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("no shard")
}

// Near miss: two senders on one channel; a received error may be either's.
func either(a, b func() error) error {
	errc := make(chan error, 2)
	for range 3 {
		go func() { errc <- a() }()
		go func() { errc <- b() }()
		if err := <-errc; err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("neither")
}
