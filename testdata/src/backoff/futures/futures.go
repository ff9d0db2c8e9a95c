// Package futures: a workflow engine's durable timers. Workflow code may
// not sleep; it schedules a timer with the engine and awaits the future
// the engine settles when the time has come. A loop that awaits such a
// timer between attempts may wait; one that awaits only its work does not.
package futures

import (
	"errors"
	"time"
)

type engine interface {
	Now() time.Time
	schedule(at time.Time, fire func())
}

type future struct{ done chan struct{} }

func (f *future) Await() error { <-f.done; return nil }

// timerFor only records the timer with the engine.
func timerFor(e engine, d time.Duration) *future {
	f := &future{done: make(chan struct{})}
	e.schedule(e.Now().Add(d), func() { close(f.done) })
	return f
}

type activity func(e engine, attempt int) *result

type result struct{ err error }

func (r *result) Await() error { return r.err }

var errFatal = errors.New("fatal")

// WithRetries waits a growing durable timer between attempts: not
// reported as retrying at once.
func WithRetries(e engine, run activity, first time.Duration) error {
	var err error
	for n := 0; n < 5; n++ {
		if err = run(e, n).Await(); err == nil || errors.Is(err, errFatal) {
			return err
		}
		d := first << n
		if werr := timerFor(e, d).Await(); werr != nil {
			return werr
		}
	}
	return err
}

// Again awaits only the next attempt's result: no wait between them.
func Again(e engine, run activity) error {
	var err error
	for n := 0; n < 5; n++ { // want `retry loop tries again at once after a failure`
		if err = run(e, n).Await(); err == nil || errors.Is(err, errFatal) {
			return err
		}
	}
	return err
}
