// Package afterwards: a wait on a path that then leaves the retry (pacing
// the work that follows a success) is not a delay between attempts; the
// retry's own wait is judged.
package afterwards

import (
	"errors"
	"time"
)

type peer struct{ id string }

type session struct {
	peers []*peer
}

func (s *session) open() error             { return errors.New("closed") }
func (p *peer) resync()                    {}
func (s *session) openVoice(p *peer) error { return nil }

// Reconnect reopens the session with a growing, capped wait, and after a
// success resyncs its peers one second apart: the second-apart pacing is
// no retry delay; the growing wait is reported (for having no jitter:
// backing off to a cap, it needs no bound).
func (s *session) Reconnect() {
	wait := time.Duration(1)
	for {
		err := s.open()
		if err == nil {
			for _, p := range s.peers {
				go p.resync()
				time.Sleep(time.Second)
			}
			return
		}
		time.Sleep(wait * time.Second) // want `retry delay has no jitter`
		wait *= 2
		if wait > 600 {
			wait = 600
		}
	}
}

// ReconnectSkipping goes round from the pacing path when a peer fails:
// that wait is between attempts, reported.
func (s *session) ReconnectSkipping() error {
	for i := 0; i < 3; i++ {
		if err := s.open(); err != nil {
			continue
		}
		failed := false
		for _, p := range s.peers {
			if s.openVoice(p) != nil {
				failed = true
			}
		}
		if failed {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		return nil
	}
	return errors.New("no session")
}
