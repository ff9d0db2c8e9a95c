// Package status is a stub of google.golang.org/grpc/internal/status for
// tests: the type behind the public package's Status alias.
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

// Code returns the status's code.
func (s *Status) Code() codes.Code { return s.code }

// Err returns the status as an error, nil for OK.
func (s *Status) Err() error {
	if s.code == codes.OK {
		return nil
	}
	return &statusError{s: s}
}

// CodeOf returns the code of err.
func CodeOf(err error) codes.Code {
	if se, ok := err.(*statusError); ok {
		return se.s.code
	}
	return codes.Unknown
}
