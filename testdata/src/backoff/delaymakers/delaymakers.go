// Package delaymakers: delays computed by a closure that a function of
// the package made (`next := growing(base, ceiling)`; `time.Sleep(next(n))`).
// The closure's returns are followed, the maker's parameters given by
// the call's arguments: a doubling capped by the closure's own test, with
// no random part, is reported; one that draws a random part, or a
// stepper the caller hands over, is not.
package delaymakers

import (
	"errors"
	"math"
	"math/rand/v2"
	"time"
)

type service interface{ Call() error }

var errGaveUp = errors.New("gave up")

type stepper func(n int) time.Duration

func growing(base, ceiling time.Duration) stepper {
	first := float64(base)
	if first <= 0 {
		first = float64(time.Millisecond)
	}
	return func(n int) time.Duration {
		d := first * math.Pow(2, float64(n))
		if d > float64(ceiling) {
			d = float64(ceiling)
		}
		return time.Duration(d)
	}
}

func spread(base time.Duration) stepper {
	return func(n int) time.Duration {
		return time.Duration(rand.Int64N(int64(min(base<<n, 5*time.Second))))
	}
}

// Retry waits a capped doubling with no random part. Reported.
func Retry(s service) error {
	next := growing(100*time.Millisecond, 10*time.Second)
	for i := 0; i < 8; i++ {
		if err := s.Call(); err == nil {
			return nil
		}
		time.Sleep(next(i)) // want `retry delay has no jitter`
	}
	return errGaveUp
}

// The near miss: the closure draws the whole delay at random.
func RetrySpread(s service) error {
	next := spread(100 * time.Millisecond)
	for i := 0; i < 8; i++ {
		if err := s.Call(); err == nil {
			return nil
		}
		time.Sleep(next(i))
	}
	return errGaveUp
}

// The near miss: the caller hands over the stepper, which may draw
// anything.
func RetryWith(s service, next stepper) error {
	for i := 0; i < 8; i++ {
		if err := s.Call(); err == nil {
			return nil
		}
		time.Sleep(next(i))
	}
	return errGaveUp
}
