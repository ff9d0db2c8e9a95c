// Package backoff is a stub of google.golang.org/grpc/backoff for tests:
// the configuration of a client connection's reconnect backoff.
package backoff

import "time"

// Config is how long a connection waits between attempts to reconnect:
// BaseDelay, grown by Multiplier up to MaxDelay, spread by Jitter (a
// fraction; 0 spreads nothing).
type Config struct {
	BaseDelay  time.Duration
	Multiplier float64
	Jitter     float64
	MaxDelay   time.Duration
}

// DefaultConfig is the library's own: 1s, times 1.6, jitter 0.2, up to
// 120s.
var DefaultConfig = Config{BaseDelay: time.Second, Multiplier: 1.6, Jitter: 0.2, MaxDelay: 120 * time.Second}
