package retry

import (
	"errors"
	"github.com/resilint/resilint/runtime/internal/config"
	"strconv"
)

// Reasons for giving up. An [*Error] returned by [Do] wraps one of them (or
// the context's error) together with the operation's last error.
var (
	// ErrAttemptsExhausted: every attempt the policy allows has been made.
	ErrAttemptsExhausted = errors.New("retry: attempts exhausted")

	// ErrDeadline: the time left before the context's deadline is shorter
	// than the next delay plus [Policy.MinAttemptBudget], so another attempt
	// could not finish in time. [Sleep] returns it, unwrapped, when asked to
	// sleep past the deadline.
	ErrDeadline = errors.New("retry: not enough time left before the deadline for another attempt")

	// ErrBudgetExhausted: the shared [Budget] has no token for another retry.
	ErrBudgetExhausted = errors.New("retry: retry budget exhausted")

	// ErrRetryAfterTooLong: the error asked to wait (Retry-After) longer than
	// [Policy.MaxDelay]. Retrying earlier than the server asked would waste
	// the attempt, so Do returns; the error still carries the requested wait.
	ErrRetryAfterTooLong = errors.New("retry: Retry-After is longer than MaxDelay")
)

// ConfigError reports a configuration field with an invalid value:
// Policy.Validate, Do and NewBudget return it for an invalid configuration
// (use errors.As; several are joined with errors.Join). Every runtime
// package defines its ConfigError alike.
type ConfigError struct {
	// Field names the field, qualified by its struct: "Policy.MaxAttempts",
	// "BudgetConfig.Ratio".
	Field string
	// Value is the offending value, nil where printing it would not help.
	Value any
	// Reason says what a valid value is.
	Reason string
	// Err, if not nil, is the underlying error.
	Err error
}

// Error reads like "retry: invalid Policy.MaxAttempts -1: want at least 1
// (or 0 for the default, 3)".
func (e *ConfigError) Error() string { return config.Text("retry", e.Field, e.Value, e.Reason, e.Err) }

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }

// Error is returned by [Do] and [DoValue] when they give up on a retryable
// failure. errors.Is(err, Reason) and errors.Is(err, Err) both hold.
type Error struct {
	// Attempts is the number of attempts made (calls of the operation).
	Attempts int
	// Reason says why Do stopped: ErrAttemptsExhausted, ErrDeadline,
	// ErrBudgetExhausted, ErrRetryAfterTooLong, context.Canceled or
	// context.DeadlineExceeded.
	Reason error
	// Err is the error returned by the last attempt.
	Err error
}

// Error reports the reason, the number of attempts and the last error, as in
// "retry: attempts exhausted (3 attempts): connection refused".
func (e *Error) Error() string {
	s := "retry: stopped"
	if e.Reason != nil {
		s = e.Reason.Error()
	}
	s += " (" + strconv.Itoa(e.Attempts) + " attempt"
	if e.Attempts != 1 {
		s += "s"
	}
	s += ")"
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the reason and the last error.
func (e *Error) Unwrap() []error { return []error{e.Reason, e.Err} }

// Permanent marks err as not worth retrying: [Do] returns at once, with err
// itself (not the wrapper). Permanent(nil) is nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err}
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// IsPermanent reports whether err, or an error it wraps, was marked with
// [Permanent].
func IsPermanent(err error) bool {
	return first(err, func(e error) bool { _, ok := e.(*permanentError); return ok }) != nil
}

// first returns the first error in err's tree (depth first, as errors.Is
// walks it) for which pred holds, or nil. It does not allocate, unlike
// errors.As with an interface target.
func first(err error, pred func(error) bool) error {
	for err != nil {
		if pred(err) {
			return err
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if f := first(e, pred); f != nil {
					return f
				}
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}
