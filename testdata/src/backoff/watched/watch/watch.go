// Package watch: a file watcher, behind an interface, one of whose
// implementations polls until the file is there.
package watch

import (
	"errors"
	"os"
	"time"
)

var ErrStopped = errors.New("stopped")

// Watcher waits for a file to appear, and lists what changed.
type Watcher interface {
	BlockUntilExists(stop <-chan struct{}) error
	Changed(path string) error
}

// Polling polls for the file every quarter second.
type Polling struct{ Path string }

func (p *Polling) BlockUntilExists(stop <-chan struct{}) error {
	for {
		if _, err := os.Stat(p.Path); err == nil {
			return nil
		} else if !os.IsNotExist(err) {
			return err
		}
		select {
		case <-time.After(250 * time.Millisecond):
		case <-stop:
			return ErrStopped
		}
	}
}

func (p *Polling) Changed(path string) error { return nil }
