// Package rpcerr declares a server's errors as gRPC statuses and its
// client's errors made from them, as a cluster store's API package does.
package rpcerr

import (
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var (
	ErrGRPCNoLeader   = status.New(codes.Unavailable, "no leader").Err()               // want ErrGRPCNoLeader:"outage"
	ErrGRPCTooMany    = status.Error(codes.ResourceExhausted, "too many requests")     // want ErrGRPCTooMany:"outage"
	ErrGRPCTimeout    = status.Errorf(codes.DeadlineExceeded, "timed out after %d", 5) // want ErrGRPCTimeout:"outage"
	ErrGRPCKeyMissing = status.Error(codes.InvalidArgument, "key not found")
	ErrGRPCCompacted  = status.New(codes.Aborted, "compacted").Err()
)

// clientError turns a server's status into the client's error.
type clientError struct{ desc string }

func (e clientError) Error() string { return e.desc }

func toClient(err error) error { return clientError{desc: err.Error()} } // want toClient:"session"

var (
	ErrNoLeader   = toClient(ErrGRPCNoLeader)                       // want ErrNoLeader:"outage"
	ErrTooMany    = fmt.Errorf("client: %w", ErrGRPCTooMany)        // want ErrTooMany:"outage"
	ErrLater      = toClient(errLaterBase)                          // want ErrLater:"outage"
	ErrKeyMissing = toClient(ErrGRPCKeyMissing)                     // no outage: a request's own failure
	ErrBoth       = errors.Join(ErrGRPCNoLeader, ErrGRPCKeyMissing) // two errors: not made from one alone
	ErrOwn        = errors.New("no leader")                         // same text, no status: nothing known
)

// errLaterBase is declared after a variable made from it.
var errLaterBase = status.Error(codes.Unavailable, "stopped") // want errLaterBase:"outage"
