// Package wait is a stub of k8s.io/apimachinery/pkg/util/wait for tests.
package wait

import "time"

type Backoff struct {
	Duration time.Duration
	Factor   float64
	Jitter   float64
	Steps    int
	Cap      time.Duration
}

// Step returns the next wait and advances the backoff.
func (b *Backoff) Step() time.Duration { return b.Duration }
