// Package clock is a stub of k8s.io/utils/clock for tests: a clock that
// code takes as a parameter so that tests can step time.
package clock

import "time"

// PassiveClock tells the time.
type PassiveClock interface {
	Now() time.Time
	Since(time.Time) time.Duration
}

// Timer is a timer of a Clock.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
	Reset(d time.Duration) bool
}

// Clock tells the time and waits.
type Clock interface {
	PassiveClock
	After(d time.Duration) <-chan time.Time
	NewTimer(d time.Duration) Timer
	Sleep(d time.Duration)
	Tick(d time.Duration) <-chan time.Time
}

// RealClock is the Clock of the time package.
type RealClock struct{}

func (RealClock) Now() time.Time                         { return time.Now() }
func (RealClock) Since(ts time.Time) time.Duration       { return time.Since(ts) }
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (RealClock) NewTimer(d time.Duration) Timer         { return &realTimer{t: time.NewTimer(d)} }
func (RealClock) Sleep(d time.Duration)                  { time.Sleep(d) }
func (RealClock) Tick(d time.Duration) <-chan time.Time  { return time.Tick(d) }

type realTimer struct{ t *time.Timer }

func (r *realTimer) C() <-chan time.Time        { return r.t.C }
func (r *realTimer) Stop() bool                 { return r.t.Stop() }
func (r *realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }

// Ticker is a ticker of a Clock.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// WithTicker is a Clock that also makes tickers.
type WithTicker interface {
	Clock
	NewTicker(time.Duration) Ticker
}

func (RealClock) NewTicker(d time.Duration) Ticker { return &realTicker{t: time.NewTicker(d)} }

type realTicker struct{ t *time.Ticker }

func (r *realTicker) C() <-chan time.Time { return r.t.C }
func (r *realTicker) Stop()               { r.t.Stop() }
