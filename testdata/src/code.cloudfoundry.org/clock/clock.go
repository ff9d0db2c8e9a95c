// Package clock is a stub of code.cloudfoundry.org/clock for tests.
package clock

import "time"

// Timer is a timer of a Clock.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
}

// Ticker is a ticker of a Clock.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// Clock tells the time and waits; tests replace it with a fake.
type Clock interface {
	Now() time.Time
	Sleep(d time.Duration)
	After(d time.Duration) <-chan time.Time
	NewTimer(d time.Duration) Timer
	NewTicker(d time.Duration) Ticker
}
