// Package delayparams calls retries that wait the delay they are given:
// a fixed delay is reported at the first call that gives one, once per
// retried function; a random one, one passed on from a parameter, a
// retry of a failure of the request's own state are not (nor, in
// package quiet, a call that makes one attempt and one whose operation
// stays on this host).
package delayparams

import (
	"context"
	"math/rand/v2"
	"time"

	"backoff/delayparams/retrier"
)

type client struct {
	pause time.Duration
}

func newClient() *client { return &client{pause: 250 * time.Millisecond} }

func fetch() error { return nil }

func Fixed() error {
	return retrier.Do(3, time.Second, fetch) // want `retry delay has no jitter: retrier.Do waits this delay between the attempts of its retry loop at retrier.go:\d+`
}

// Again gives the same retry another fixed delay: related to the first.
func Again() error {
	return retrier.Do(5, 2*time.Second, fetch)
}

// Configured gives a field the package sets to a constant.
func (c *client) Configured() error {
	return retrier.Default(fetch, c.pause) // want `retry delay has no jitter: retrier.Default waits this delay`
}

// Random gives a random delay: not reported.
func Random() error {
	return retrier.Do(3, time.Duration(rand.Int64N(int64(time.Second))), fetch)
}

// Through passes its own parameter on: judged at its callers.
func Through(d time.Duration) error {
	return retrier.Do(3, d, fetch)
}

// Own state: not reported.
func Own(ctx context.Context) error {
	return retrier.Pending(ctx, time.Second, fetch)
}

// Doubling gives a fixed base that the retry doubles: no random part.
func Doubling() error {
	return retrier.Grow(4, 100*time.Millisecond, fetch) // want `retry delay has no jitter: retrier.Grow waits this delay, grown with each attempt, between the attempts of its retry loop at retrier.go:\d+`
}

// A random base, drawn here: the doubling keeps it random. Not reported.
func DoublingRandom() error {
	return retrier.Grow(4, time.Duration(rand.Int64N(int64(100*time.Millisecond))), fetch)
}

// DoublingInPlace gives a fixed base that the retry doubles in place:
// reported as Doubling is.
func DoublingInPlace(ctx context.Context) error {
	return retrier.GrowInPlace(ctx, 5*time.Second, time.Minute, fetch) // want `retry delay has no jitter: retrier.GrowInPlace waits this delay, grown with each attempt, between the attempts of its retry loop at retrier.go:\d+`
}

// DoublingInPlaceRandom draws the base: not reported.
func DoublingInPlaceRandom(ctx context.Context) error {
	return retrier.GrowInPlace(ctx, time.Duration(rand.Int64N(int64(5*time.Second))), time.Minute, fetch)
}

// Made makes a retry with a fixed delay: reported where it is made.
func Made() func(ctx context.Context, call retrier.Call) error {
	return retrier.Interceptor(3, 500*time.Millisecond) // want `retry delay has no jitter: the function retrier.Interceptor returns waits this delay between the attempts of its retry loop at retrier.go:\d+`
}

// MadePaced gives only the cap of a wait the made retry computes with
// the function it is given: not reported.
func MadePaced() func(ctx context.Context, call retrier.Call) error {
	return retrier.Paced(3, 2*time.Second, func(n int) time.Duration {
		return time.Duration(rand.Int64N(int64(time.Second << n)))
	})
}
