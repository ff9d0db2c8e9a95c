// Package codes is a stub of google.golang.org/grpc/codes for tests.
package codes

type Code uint32

const (
	OK                Code = 0
	Canceled          Code = 1
	Unknown           Code = 2
	InvalidArgument   Code = 3
	DeadlineExceeded  Code = 4
	NotFound          Code = 5
	ResourceExhausted Code = 8
	Aborted           Code = 10
	Unavailable       Code = 14
)
