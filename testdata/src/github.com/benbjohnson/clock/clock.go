// Package clock is a stub of github.com/benbjohnson/clock for tests.
package clock

import "time"

// Clock tells the time and waits; tests replace it with a mock.
type Clock interface {
	After(d time.Duration) <-chan time.Time
	Now() time.Time
	Sleep(d time.Duration)
	Tick(d time.Duration) <-chan time.Time
}
