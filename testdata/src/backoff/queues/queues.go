// Package queues works through values taken off a queue: a pass whose
// operation fails drops its value and takes the next one.
package queues

import (
	"encoding/json"
	"errors"
)

type inbox struct {
	pending [][]byte
	closed  bool
}

// take pops the oldest pending message off the inbox.
func (b *inbox) take() ([]byte, bool) {
	if len(b.pending) == 0 {
		return nil, !b.closed
	}
	m := b.pending[0]
	b.pending = b.pending[1:]
	return m, true
}

// peek returns the oldest pending message and leaves it there.
func (b *inbox) peek() ([]byte, bool) {
	if len(b.pending) == 0 {
		return nil, !b.closed
	}
	return b.pending[0], true
}

func decode(m []byte, into any) error { return json.Unmarshal(m, into) }

// Next decodes the next message that decodes, dropping the corrupt ones.
func (b *inbox) Next(into any) error {
	for {
		m, more := b.take()
		if !more {
			return errors.New("closed")
		}
		if m == nil {
			continue
		}
		if err := decode(m, into); err != nil {
			continue // corrupt: dropped, take the next
		}
		return nil
	}
}

// Receive decodes the values received from ch, skipping those that fail.
func Receive(ch chan []byte, into any) error {
	for {
		m, ok := <-ch
		if !ok {
			return errors.New("closed")
		}
		if err := decode(m, into); err != nil {
			continue
		}
		return nil
	}
}

// Head decodes the same head message again and again: peek does not take
// it off, so every pass repeats the same failing operation at once.
func (b *inbox) Head(into any) error {
	for { // want `loop tries again at once after a failure` `retry loop has no bound`
		m, more := b.peek()
		if !more {
			return errors.New("closed")
		}
		if err := decode(m, into); err != nil {
			continue
		}
		return nil
	}
}
