package bounds

import (
	"errors"
	"math/rand/v2"
	"time"
)

type session struct{ addr string }

func (s *session) open() error { return nil }

// Backs off exponentially to a cap: a reconnect made to run through a
// long outage, one attempt per cap once there. No bound is the design.
func (s *session) reconnect() {
	wait := 100 * time.Millisecond
	for {
		if err := s.open(); err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Int64N(int64(wait))))
		wait = min(wait*2, 10*time.Minute)
	}
}

// The same reconnect with its cap written as an if.
func (s *session) reconnectIfCap() {
	wait := time.Second
	for {
		if err := s.open(); err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Int64N(int64(wait))))
		wait *= 2
		if wait > 10*time.Minute {
			wait = 10 * time.Minute
		}
	}
}

// A fixed delay does not back off: the dependency gets an attempt per
// second from every client for as long as it is down.
func (s *session) reconnectFixed() {
	for { // want `retry loop has no bound`
		if err := s.open(); err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
}

// Growth without a cap is no design for a long outage: reported for both.
func (s *session) reconnectUncapped() {
	wait := time.Second
	for { // want `retry loop has no bound`
		if err := s.open(); err == nil {
			return
		}
		time.Sleep(time.Duration(rand.Int64N(int64(wait)))) // want `retry delay grows exponentially with no cap`
		wait *= 2
	}
}

// One path backs off to a cap, the other waits a fixed second: not
// every wait backs off, so the bound is missing.
func (s *session) reconnectMixed(fast bool) {
	wait := time.Second
	for { // want `retry loop has no bound`
		if err := s.open(); err == nil {
			return
		}
		if fast {
			time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
			continue
		}
		time.Sleep(time.Duration(rand.Int64N(int64(wait))))
		wait = min(wait*2, time.Minute)
	}
}

type voice struct {
	ready  func() bool
	settle func() time.Duration
}

// settle waits for the voice channel to settle, for as long as the
// settle hook says: a wait of a shape the model cannot see into.
func (v *voice) settleDown() { time.Sleep(v.settle()) }

func (v *voice) join() error {
	if !v.ready() {
		return errTimeout
	}
	return nil
}

var errTimeout = errors.New("voice: timed out")

// A wait of unknown shape in the pass says nothing about the retry's own
// backoff, which grows to a cap: no bound is the design.
func (v *voice) reconnect() {
	wait := time.Second
	for {
		time.Sleep(time.Duration(rand.Int64N(int64(wait))))
		wait = min(wait*2, 10*time.Minute)
		if err := v.join(); err == nil {
			return
		}
		v.settleDown()
	}
}
