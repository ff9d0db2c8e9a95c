// Package rate is a stub of golang.org/x/time/rate for the analyzers'
// tests: the signatures the catalog names, with token-bucket bodies kept
// to a minimum.
package rate

import (
	"context"
	"time"
)

// Limit is events per second.
type Limit float64

// Limiter is a token bucket.
type Limiter struct {
	limit  Limit
	burst  int
	tokens float64
}

// NewLimiter returns a limiter of r events a second and bursts of b.
func NewLimiter(r Limit, b int) *Limiter { return &Limiter{limit: r, burst: b, tokens: float64(b)} }

// Allow reports whether one event may happen now.
func (l *Limiter) Allow() bool { return l.AllowN(time.Now(), 1) }

// AllowN reports whether n events may happen at t.
func (l *Limiter) AllowN(t time.Time, n int) bool {
	if l.tokens < float64(n) {
		return false
	}
	l.tokens -= float64(n)
	return true
}

// Reservation is a promise of events later.
type Reservation struct{ ok bool }

// OK reports whether the reservation can be met.
func (r *Reservation) OK() bool { return r.ok }

// Delay is the time to wait before acting.
func (r *Reservation) Delay() time.Duration { return 0 }

// Reserve reserves one event.
func (l *Limiter) Reserve() *Reservation { return l.ReserveN(time.Now(), 1) }

// ReserveN reserves n events at t.
func (l *Limiter) ReserveN(t time.Time, n int) *Reservation { return &Reservation{ok: n <= l.burst} }

// Wait waits for one event.
func (l *Limiter) Wait(ctx context.Context) error { return l.WaitN(ctx, 1) }

// WaitN waits for n events.
func (l *Limiter) WaitN(ctx context.Context, n int) error { return ctx.Err() }
