// Package reconnects dials gRPC connections whose reconnect backoff the
// code configures: a connection reconnects for as long as it lives, and
// a backoff without jitter brings every client of a restarted server
// back in the same waves.
package reconnects

import (
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
)

// spec copies the base, multiplier and cap and leaves the jitter out:
// reported.
func spec() grpc.DialOption {
	return grpc.WithConnectParams(grpc.ConnectParams{
		Backoff: backoff.Config{ // want `grpc.WithConnectParams waits without jitter \(a backoff.Config without Jitter\)`
			BaseDelay:  15 * time.Second,
			Multiplier: 2,
			MaxDelay:   300 * time.Second,
		},
	})
}

// zero sets the jitter to 0: reported.
func zero() grpc.DialOption {
	params := grpc.ConnectParams{
		Backoff: backoff.Config{BaseDelay: time.Second, Multiplier: 1.6, Jitter: 0, MaxDelay: time.Minute}, // want `grpc.WithConnectParams waits without jitter \(Jitter: 0\)`
	}
	return grpc.WithConnectParams(params)
}

// spread keeps a jitter: not reported.
func spread() grpc.DialOption {
	return grpc.WithConnectParams(grpc.ConnectParams{
		Backoff: backoff.Config{BaseDelay: 15 * time.Second, Multiplier: 2, Jitter: 0.2, MaxDelay: 300 * time.Second},
	})
}

// library takes the library's default backoff, jittered: not reported.
func library() grpc.DialOption {
	return grpc.WithConnectParams(grpc.ConnectParams{Backoff: backoff.DefaultConfig, MinConnectTimeout: 5 * time.Second})
}

// timeoutOnly sets no backoff at all: the default, not reported.
func timeoutOnly() grpc.DialOption {
	return grpc.WithConnectParams(grpc.ConnectParams{MinConnectTimeout: 5 * time.Second})
}

// given dials with the backoff its caller chose: not known here, not
// reported.
func given(b backoff.Config) grpc.DialOption {
	return grpc.WithConnectParams(grpc.ConnectParams{Backoff: b})
}
