// Package clockwork is a stub of github.com/jonboulle/clockwork for tests.
package clockwork

import "time"

// Timer is a timer of a Clock.
type Timer interface {
	Chan() <-chan time.Time
	Stop() bool
}

// Ticker is a ticker of a Clock.
type Ticker interface {
	Chan() <-chan time.Time
	Stop()
}

// Clock tells the time and waits; tests replace it with a fake.
type Clock interface {
	After(d time.Duration) <-chan time.Time
	Sleep(d time.Duration)
	Now() time.Time
	NewTimer(d time.Duration) Timer
	NewTicker(d time.Duration) Ticker
}
