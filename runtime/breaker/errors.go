package breaker

import "fmt"

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

// ConfigError is returned by New for a Config field with an invalid value.
type ConfigError struct {
	// Field is the name of the Config field, "MinimumCalls" for example.
	Field string
	// Value is the offending value.
	Value any
	// Reason says what a valid value is.
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("breaker: invalid Config.%s %v: %s", e.Field, e.Value, e.Reason)
}
