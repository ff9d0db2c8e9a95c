package bounds

import (
	"context"
	"sync"
	"time"
)

// A state of a link, compared by value: the package's variables are its
// only values.
type linkState struct{ label string }

var (
	linkUp     = linkState{"up"}
	linkDown   = linkState{"down"}
	linkClosed = linkState{"closed"}
)

type link struct {
	mu sync.Mutex
	st linkState
}

func (l *link) open() error { return call(context.Background()) }

// Close moves the link to its last state.
func (l *link) Close() {
	l.mu.Lock()
	l.st = linkClosed
	l.mu.Unlock()
}

// State reads the state Close sets.
func (l *link) State() linkState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.st
}

// Ended when Close moves the state the switch reads: bounded.
func (l *link) reopen() {
	for {
		time.Sleep(jittered(time.Second))
		switch s := l.State(); s {
		case linkUp, linkDown:
		case linkClosed:
			return
		}
		if err := l.open(); err == nil {
			return
		}
	}
}

// The case that matches the closed state only leaves the switch: no
// bound.
func (l *link) reopenStaying() {
	for { // want `retry loop has no bound`
		time.Sleep(jittered(time.Second))
		switch l.State() {
		case linkClosed:
			break
		}
		if err := l.open(); err == nil {
			return
		}
	}
}
