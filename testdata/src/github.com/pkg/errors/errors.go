// Package errors stands in for github.com/pkg/errors: errors with stack
// traces, and Is and As that only forward to the standard library's.
package errors

import stderrors "errors"

type withMessage struct {
	msg   string
	cause error
}

func (w *withMessage) Error() string { return w.msg + ": " + w.cause.Error() }
func (w *withMessage) Unwrap() error { return w.cause }

// New returns an error with the text.
func New(text string) error { return stderrors.New(text) }

// Wrap annotates err with msg.
func Wrap(err error, msg string) error {
	if err == nil {
		return nil
	}
	return &withMessage{msg: msg, cause: err}
}

// Is forwards to the standard errors.Is.
func Is(err, target error) bool { // want Is:"identifies as errors.Is\\(0, 1\\)"
	return stderrors.Is(err, target)
}

// As forwards to the standard errors.As.
func As(err error, target any) bool { // want As:"identifies as errors.As\\(0, 1\\)"
	return stderrors.As(err, target)
}

// Cause returns the innermost error err wraps.
func Cause(err error) error {
	for {
		w, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		next := w.Unwrap()
		if next == nil {
			return err
		}
		err = next
	}
}
