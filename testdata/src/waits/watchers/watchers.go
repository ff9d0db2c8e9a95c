// Package watchers: the methods of an interface that a type of the
// package implements with a method that waits may wait when called
// through the interface, in this package or another (MayWaitFact).
package watchers

import (
	"errors"
	"os"
	"time"
)

var ErrStopped = errors.New("stopped")

// Watcher waits for a file.
type Watcher interface {
	Exists(stop <-chan struct{}) error // want Exists:"may wait"
	Name() string
}

// Poller polls for the file once a second until it is there.
type Poller struct{ Path string }

func (p *Poller) Exists(stop <-chan struct{}) error {
	for {
		if _, err := os.Stat(p.Path); err == nil {
			return nil
		}
		select {
		case <-time.After(time.Second):
		case <-stop:
			return ErrStopped
		}
	}
}

// Name waits for nothing: no fact for Watcher.Name.
func (p *Poller) Name() string { return p.Path }

// checker is unexported: what it may do is this package's own business.
type checker interface {
	Exists(stop <-chan struct{}) error
}

var _ checker = (*Poller)(nil)
