// Package fsnotify is a stub of github.com/fsnotify/fsnotify for the
// analyzers' fixtures: watches of this host's files, kept by a backend
// of the platform (inotify, kqueue) behind an interface.
package fsnotify

type backend interface {
	add(name string) error
}

// Watcher watches files.
type Watcher struct {
	Events chan Event
	b      backend
}

// Event is a change to a watched file.
type Event struct{ Name string }

// Add starts watching name.
func (w *Watcher) Add(name string) error { return w.b.add(name) }
