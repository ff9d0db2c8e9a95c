// Package status is a stub of google.golang.org/grpc/status for tests.
// As in the real package, Status is an alias of the internal type.
package status

import (
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/internal/status"
)

// Status is a code and a message.
type Status = status.Status

// New returns a Status.
func New(c codes.Code, msg string) *Status { return status.New(c, msg) }

// Newf returns a Status with a formatted message.
func Newf(c codes.Code, format string, a ...any) *Status {
	return New(c, fmt.Sprintf(format, a...))
}

// Error returns an error of the code.
func Error(c codes.Code, msg string) error { return New(c, msg).Err() }

// Errorf returns an error of the code with a formatted message.
func Errorf(c codes.Code, format string, a ...any) error { return Newf(c, format, a...).Err() }

// Code returns the code of err.
func Code(err error) codes.Code { return status.CodeOf(err) }
