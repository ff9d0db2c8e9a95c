// Package notready reconnects, skipping the passes in which the session
// is not ready yet. A pass that runs no operation says nothing about the
// loop: what its variables hold is an earlier pass's outcome. The
// reconnect loop is a retry (it ends only on success); the heartbeat,
// which goes round after a success too, is not.
package notready

import (
	"errors"
	"log"
	"time"
)

type session struct{ ready bool }

func (s *session) join(channel string) error { return errors.New("gateway unavailable") }

func (s *session) leave(channel string) error { return nil }

func (s *session) ping() error { return nil }

// Reconnect waits, skips the pass while the session is not ready, and
// sends a reset after a failed join: its wait is reported (backing off
// to a cap, it needs no bound).
func (s *session) Reconnect(channel string) {
	wait := time.Duration(1)
	for {
		<-time.After(wait * time.Second) // want `retry delay has no jitter`
		wait *= 2
		if wait > 600 {
			wait = 600
		}
		if !s.ready {
			continue
		}
		err := s.join(channel)
		if err == nil {
			return
		}
		err = s.leave(channel)
		if err != nil {
			log.Print(err)
		}
	}
}

// Heartbeat pings for ever, after successes as after failures: a
// periodic probe, not reported.
func (s *session) Heartbeat() {
	for {
		<-time.After(time.Second)
		if !s.ready {
			continue
		}
		if err := s.ping(); err != nil {
			log.Print(err)
			continue
		}
		log.Print("alive")
	}
}
