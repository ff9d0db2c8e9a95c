// Package leveled is a leveled logger of another package, for the
// fixtures: its printf-shaped functions return nothing, and where their
// output goes (a sink behind an interface) the model cannot see.
package leveled

// Sink receives what is logged.
type Sink interface {
	Emit(level int, msg string, args ...any) error
}

var sink Sink

// Verbose logs when its level is enabled.
type Verbose bool

// V returns the logger for level.
func V(level int) Verbose { return level < 2 }

// Infof logs at the level of v.
func (v Verbose) Infof(format string, args ...any) {
	if v {
		_ = sink.Emit(0, format, args...)
	}
}

// Errorf logs an error.
func Errorf(format string, args ...any) { _ = sink.Emit(2, format, args...) }

// Sendf hands a message to the sink and says whether it took it.
func Sendf(format string, args ...any) error { return sink.Emit(1, format, args...) }
