// Package checkers makes go-round tests for retry loops.
package checkers

import (
	"errors"
	"time"
)

// ErrThrottled is what the service says when it wants callers to slow
// down.
var ErrThrottled = errors.New("throttled")

// Limited says whether to go round again: it counts its calls, waits on
// a throttle, and gives up after max.
func Limited(max int, sleep func(time.Duration)) func(error) bool {
	tries := 0
	return func(err error) bool {
		if err == nil || tries >= max {
			return false
		}
		tries++
		if errors.Is(err, ErrThrottled) {
			sleep(time.Duration(tries) * time.Second)
		}
		return true
	}
}

// Default is Limited with the package's settings.
func Default() func(error) bool { return Limited(3, time.Sleep) }

// Transient says whether an error is worth another try; it keeps no
// state.
func Transient() func(error) bool {
	return func(err error) bool { return err != nil && !errors.Is(err, errors.ErrUnsupported) }
}
