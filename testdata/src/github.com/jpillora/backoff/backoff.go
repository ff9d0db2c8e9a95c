// Package backoff is a stub of github.com/jpillora/backoff for tests:
// Duration and ForAttempt grow Min by Factor up to Max, random only when
// Jitter is set.
package backoff

import "time"

type Backoff struct {
	Factor   float64
	Jitter   bool
	Min, Max time.Duration
	attempt  float64
}

func (b *Backoff) Duration() time.Duration {
	d := b.ForAttempt(b.attempt)
	b.attempt++
	return d
}

func (b *Backoff) ForAttempt(attempt float64) time.Duration { return b.Min }

func (b *Backoff) Reset() { b.attempt = 0 }

func (b *Backoff) Attempt() float64 { return b.attempt }

func (b *Backoff) Copy() *Backoff {
	return &Backoff{Factor: b.Factor, Jitter: b.Jitter, Min: b.Min, Max: b.Max}
}
