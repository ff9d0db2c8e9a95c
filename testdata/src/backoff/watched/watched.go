// Package watched: a loop that, when the open fails, blocks in a
// watcher until it appears before it opens it again. The watcher's
// interface is implemented, in its package, by a method that polls with
// a pause: the call may wait, and the loop is not known to go round at
// once.
package watched

import (
	"fmt"
	"os"

	"backoff/watched/watch"
)

type logger interface {
	Printf(format string, args ...any)
}

type tail struct {
	path string
	file *os.File
	w    watch.Watcher
	log  logger
	stop chan struct{}
}

func (t *tail) reopen() error {
	for {
		var err error
		t.file, err = os.Open(t.path)
		if err != nil {
			t.log.Printf("waiting for %s: %v", t.path, err)
			if err := t.w.BlockUntilExists(t.stop); err != nil {
				return fmt.Errorf("open %s: %w", t.path, err)
			}
			continue
		}
		return nil
	}
}

// Near miss: the method called between the attempts is one no
// implementation waits in.
func (t *tail) reopenChanged() error {
	for { // want `tries again at once`
		var err error
		t.file, err = os.Open(t.path)
		if err != nil {
			t.log.Printf("waiting for %s: %v", t.path, err)
			if err := t.w.Changed(t.path); err != nil {
				return fmt.Errorf("open %s: %w", t.path, err)
			}
			continue
		}
		return nil
	}
}
