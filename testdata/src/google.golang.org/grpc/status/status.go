// Package status is a stub of google.golang.org/grpc/status for tests.
package status

import (
	"fmt"

	"google.golang.org/grpc/codes"
)

// Status is a code and a message.
type Status struct {
	code codes.Code
	msg  string
}

type statusError struct{ s *Status }

func (e *statusError) Error() string {
	return fmt.Sprintf("rpc error: code = %d desc = %s", e.s.code, e.s.msg)
}

// New returns a Status.
func New(c codes.Code, msg string) *Status { return &Status{code: c, msg: msg} }

// Newf returns a Status with a formatted message.
func Newf(c codes.Code, format string, a ...any) *Status {
	return New(c, fmt.Sprintf(format, a...))
}

// Err returns the status as an error, nil for OK.
func (s *Status) Err() error {
	if s.code == codes.OK {
		return nil
	}
	return &statusError{s: s}
}

// Error returns an error of the code.
func Error(c codes.Code, msg string) error { return New(c, msg).Err() }

// Errorf returns an error of the code with a formatted message.
func Errorf(c codes.Code, format string, a ...any) error { return Newf(c, format, a...).Err() }

// Code returns the code of err.
func Code(err error) codes.Code {
	if se, ok := err.(*statusError); ok {
		return se.s.code
	}
	return codes.Unknown
}
