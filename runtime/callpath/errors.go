package callpath

import (
	"context"
	"errors"
	"github.com/resilint/resilint/runtime/internal/config"
	"time"

	"github.com/resilint/resilint/runtime/breaker"
	"github.com/resilint/resilint/runtime/bulkhead"
	"github.com/resilint/resilint/runtime/deadline"
)

var (
	// ErrTimeout is wrapped by the [*TimeoutError] returned when the total
	// deadline set by the Path ran out: Config.Timeout, or the caller's
	// deadline less Config.FallbackReserve. It is also the cause
	// (context.Cause) of the contexts that deadline ends. A deadline of the
	// caller's own that passes is reported as the caller's context reports
	// it (context.DeadlineExceeded), not with ErrTimeout.
	ErrTimeout = errors.New("callpath: timeout")

	// ErrAttemptTimeout is wrapped by the [*TimeoutError] returned when
	// Config.AttemptTimeout ended an attempt, and is the cause
	// (context.Cause) of the attempt's context then.
	ErrAttemptTimeout = errors.New("callpath: attempt timeout")
)

// TimeoutError reports that one of the Path's timeouts ended the call or an
// attempt. errors.Is holds for [ErrTimeout] or [ErrAttemptTimeout], for
// context.DeadlineExceeded, and for the error the operation returned. Its
// Timeout method reports true, so retry and breaker classifiers treat it as
// a timeout whatever the operation made of its ended context.
type TimeoutError struct {
	// Attempt is true for Config.AttemptTimeout, false for the total deadline.
	Attempt bool
	// After is the time the layer allowed: AttemptTimeout, or the time from
	// the start of the call to the total deadline (less the reserve).
	After time.Duration
	// Err is what the path, or the attempt, returned when the time was up.
	Err error
}

// Error returns, for example, "callpath: attempt timeout after 300ms: context
// deadline exceeded".
func (e *TimeoutError) Error() string {
	s := e.sentinel().Error()
	if e.After > 0 {
		s += " after " + roundDuration(e.After).String()
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *TimeoutError) sentinel() error {
	if e.Attempt {
		return ErrAttemptTimeout
	}
	return ErrTimeout
}

// Unwrap returns the sentinel ([ErrTimeout] or [ErrAttemptTimeout]) and Err.
func (e *TimeoutError) Unwrap() []error { return []error{e.sentinel(), e.Err} }

// Is reports true for context.DeadlineExceeded: the call ran out of time.
func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// Timeout reports true, as net.Error does for a timeout.
func (e *TimeoutError) Timeout() bool { return true }

func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

// ConfigError reports a configuration field with an invalid value: New
// return it for an invalid configuration (use errors.As). Every runtime
// package defines its ConfigError alike.
type ConfigError struct {
	// Field names the field: its name for a field of Config, qualified by
	// its struct otherwise, "AttemptTimeout".
	Field string
	// Value is the offending value, nil where printing it would not help.
	Value any
	// Reason says what a valid value is.
	Reason string
	// Err, if not nil, is the underlying error (a part's own validation).
	Err error
}

// Error reads like "callpath: invalid Config.Field value: reason".
func (e *ConfigError) Error() string {
	return config.Text("callpath", e.Field, e.Value, e.Reason, e.Err)
}

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }

// BreakerClassify is a classifier for the Config.Classify of a breaker on a
// Path: breaker.DefaultClassify, except that a call whose last attempt never
// reached the dependency is ignored rather than counted as a failure: turned
// away by a full bulkhead (bulkhead.ErrFull), or refused by a
// deadline.Transport for lack of time (deadline.ErrNotEnoughTime). Both say
// that this side is saturated or late, not that the dependency is unwell,
// and counting them would let a burst of local load open the circuit on a
// healthy dependency. (Slowness of the dependency that fills the bulkhead is
// still seen, through the calls that do reach it and the breaker's slow-call
// rate.)
//
//	br, err := breaker.New(breaker.Config{Classify: callpath.BreakerClassify})
func BreakerClassify(err error) breaker.Outcome {
	if errors.Is(err, bulkhead.ErrFull) || errors.Is(err, deadline.ErrNotEnoughTime) {
		return breaker.OutcomeIgnored
	}
	return breaker.DefaultClassify(err)
}
