package bounds

import (
	"context"
	"sync"
	"time"
)

type phase int

const (
	dialing phase = iota
	shut
)

type stream struct {
	mu sync.Mutex
	ph phase
}

func (s *stream) dial() error { return call(context.Background()) }

// Close moves the stream to its last phase.
func (s *stream) Close() {
	s.mu.Lock()
	s.ph = shut
	s.mu.Unlock()
}

// phase reads the phase Close sets: a question about shared state.
func (s *stream) phase() phase {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ph
}

// next moves the phase on as it reads it: no question, a step.
func (s *stream) next() phase {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ph++
	return s.ph
}

// Ended when Close moves the phase the getter reads: bounded.
func (s *stream) redial() {
	for {
		if s.phase() == shut {
			return
		}
		if err := s.dial(); err == nil {
			return
		}
		time.Sleep(jittered(time.Second))
	}
}

// A method that steps the phase itself is no stop another goroutine
// gives: no bound.
func (s *stream) redialStep() {
	for { // want `retry loop has no bound`
		if s.next() == shut {
			s.ph = dialing
		}
		if err := s.dial(); err == nil {
			return
		}
		time.Sleep(jittered(time.Second))
	}
}
