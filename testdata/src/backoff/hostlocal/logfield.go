package hostlocal

import (
	"os"
	"time"
)

// LogFunc is how a program logs: a function it is configured with, of a
// printf's shape.
type LogFunc func(level int, format string, args ...any)

// Hook is told each failed path; what it does is the caller's.
type Hook func(path string)

type mover struct {
	logf   LogFunc
	failed Hook
}

// moveLogged renames a file of this host, logging each refusal through
// the configured function: of a printf's shape and returning nothing, it
// cannot fail the attempt and is no remote work. Not reported.
func (m *mover) moveLogged(from, to string) {
	for i := 0; i < 4; i++ {
		err := os.Rename(from, to)
		if err == nil {
			return
		}
		m.logf(1, "rename %s: %v", from, err)
		time.Sleep(time.Second)
	}
}

// moveHooked tells a hook of another shape instead, which may reach
// anywhere on every pass: the fixed pause is reported.
func (m *mover) moveHooked(from, to string) {
	for i := 0; i < 4; i++ {
		err := os.Rename(from, to)
		if err == nil {
			return
		}
		m.failed(from)
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}
