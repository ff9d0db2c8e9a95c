package resume

import (
	"context"
	"errors"
	"time"
)

// A watch whose fetch waits a fixed second after a failure, and skips an
// item it cannot apply at once: the skip is a success of the fetch, and
// the loop a resume loop whose failure wait is a retry delay.
type changes interface {
	Next() ([]string, error)
}

type store interface {
	Apply(items ...string) error
}

type mirror struct{ dst store }

func (m *mirror) follow(w changes) {
	for {
		items, err := w.Next()
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return
			}
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		if err := m.dst.Apply(items...); err != nil {
			continue // a bad batch is dropped
		}
	}
}

// Near miss: the fetch's own failure goes round at once (only the apply
// waits): a consumer skipping what it could not read, no resume loop.
func (m *mirror) followEager(w changes) {
	for {
		items, err := w.Next()
		if err != nil {
			continue
		}
		if err := m.dst.Apply(items...); err != nil {
			time.Sleep(time.Second)
			continue
		}
	}
}
