package breaker

import "github.com/resilint/resilint/runtime/internal/config"

// rejection is the type of the errors returned for calls the breaker did not
// let through.
type rejection struct{ msg string }

func (e *rejection) Error() string { return e.msg }

// CircuitOpen reports true: the call was rejected by an open (or saturated
// half-open) circuit and never reached the operation. Packages that must not
// import breaker recognize rejections through interface{ CircuitOpen() bool }.
func (e *rejection) CircuitOpen() bool { return true }

// Is makes errors.Is(err, ErrOpen) true for every rejection.
func (e *rejection) Is(target error) bool { return target == ErrOpen }

var (
	// ErrOpen is returned, without calling the operation, while the circuit is
	// open. It is not a failure of the dependency and is never recorded as one.
	ErrOpen error = &rejection{"breaker: circuit open"}

	// ErrTooManyTrials is returned, without calling the operation, while the
	// circuit is half-open and all trial calls are taken.
	// errors.Is(ErrTooManyTrials, ErrOpen) is true.
	ErrTooManyTrials error = &rejection{"breaker: too many trial calls while half-open"}
)

// ConfigError reports a configuration field with an invalid value: New
// return it for an invalid configuration (use errors.As). Every runtime
// package defines its ConfigError alike.
type ConfigError struct {
	// Field names the field: its name for a field of Config, qualified by
	// its struct otherwise, "MinimumCalls".
	Field string
	// Value is the offending value, nil where printing it would not help.
	Value any
	// Reason says what a valid value is.
	Reason string
	// Err, if not nil, is the underlying error (a part's own validation).
	Err error
}

// Error reads like "breaker: invalid Config.Field value: reason".
func (e *ConfigError) Error() string {
	return config.Text("breaker", e.Field, e.Value, e.Reason, e.Err)
}

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }
