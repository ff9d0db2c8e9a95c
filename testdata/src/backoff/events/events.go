// Loops that another goroutine wakes for every pass are paced by the
// sender: a failed attempt waits for the next signal, not for a delay
// of the loop's own. They are no retries, and their waits are no retry
// delays.
package events

import (
	"errors"
	"time"
)

type segment struct {
	wake    chan struct{}
	quit    chan struct{}
	pending int
	sealed  bool
}

func (s *segment) buffered() int { return s.pending }

func (s *segment) write() error { return errors.New("disk full") }

func (s *segment) release() error { return errors.New("busy") }

// coalesce is woken by writers; it lets writes gather for a few doubling
// milliseconds, writes, and leaves once the files are released.
func (s *segment) coalesce() {
	for {
		select {
		case <-s.wake:
			if n := s.buffered(); n != 0 {
				pause := time.Millisecond
				for waited := time.Duration(0); n < 4096 && waited < 8*time.Millisecond; waited += pause {
					time.Sleep(pause)
					n = s.buffered()
					pause *= 2
				}
				_ = s.write()
			}
			if s.sealed {
				if err := s.release(); err == nil {
					return
				}
			}
		case <-s.quit:
			return
		}
	}
}

// worker receives its signal bare.
func worker(signal <-chan struct{}, s *segment) {
	for {
		<-signal
		if err := s.release(); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// Near misses: each loop below paces itself, and is judged as a retry.

// rewakes sends itself the signal after a failure: the pace is its own.
func (s *segment) rewakes() {
	for { // want `has no bound`
		<-s.wake
		if err := s.release(); err == nil {
			return
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
		s.wake <- struct{}{}
	}
}

// ticks goes round on a timer when no signal comes.
func (s *segment) ticks(t *time.Ticker) {
	for { // want `has no bound`
		select {
		case <-s.wake:
		case <-t.C:
		}
		if err := s.release(); err == nil {
			return
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

// polls does not wait for the signal: its select has a default.
func (s *segment) polls() {
	for { // want `has no bound`
		select {
		case <-s.wake:
		default:
		}
		if err := s.release(); err == nil {
			return
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

// local makes its own channel and fills it: it is no signal from
// elsewhere.
func (s *segment) local() {
	ready := make(chan struct{}, 1)
	ready <- struct{}{}
	for { // want `has no bound`
		<-ready
		if err := s.release(); err == nil {
			return
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
		ready <- struct{}{}
	}
}

// clocked waits on a channel of times kept in a field: a timer's,
// though not made here.
func (s *segment) clocked(tick <-chan time.Time) {
	for { // want `has no bound`
		<-tick
		if err := s.release(); err == nil {
			return
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

// rearms asks a helper to send the signal again after a pause, from a
// timer's callback: that pause is the timer's, not a wait the loop makes,
// and the loop stays one woken by a signal (judged, it would look as if
// it went round at once).
func (s *segment) rearms() {
	for {
		<-s.wake
		if err := s.release(); err == nil {
			return
		}
		s.again()
	}
}

func (s *segment) again() {
	time.AfterFunc(time.Second, func() { s.wake <- struct{}{} })
}
