package caps

import (
	"context"
	"errors"
	"time"
)

func register(ctx context.Context) error { return errors.New("down") }

// pacer is a stateful backoff: each Next doubles, and past its max it
// gives the max.
type pacer struct {
	min, max time.Duration
	n        int
}

func (p *pacer) next() time.Duration {
	d := p.min << p.n
	p.n++
	if d > p.max {
		return p.max
	}
	return d
}

// The delay is capped inside the pacer: no jitter, but a cap.
func registerPaced(ctx context.Context) error {
	p := &pacer{min: 100 * time.Millisecond, max: 30 * time.Second}
	for attempt := 0; attempt < 20; attempt++ {
		if err := register(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(p.next()): // want `retry delay has no jitter`
		}
	}
	return errors.New("gave up")
}

// A doubling loop that returns the max once past it.
func (p *pacer) after(attempt int) time.Duration {
	d := p.min
	for i := 0; i < attempt; i++ {
		d *= 2
		if d > p.max {
			return p.max
		}
	}
	return d
}

func registerAfter(ctx context.Context) error {
	p := &pacer{min: 100 * time.Millisecond, max: 30 * time.Second}
	for attempt := 0; attempt < 20; attempt++ {
		if err := register(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(p.after(attempt)): // want `retry delay has no jitter`
		}
	}
	return errors.New("gave up")
}

// Near misses: a guard that returns the grown value itself, and one that
// breaks out with it: no cap.
func (p *pacer) unguarded() time.Duration {
	d := p.min << p.n
	p.n++
	if d > p.max {
		return d
	}
	return d
}

func (p *pacer) broken(attempt int) time.Duration {
	d := p.min
	for i := 0; i < attempt; i++ {
		d *= 2
		if d > p.max {
			break
		}
	}
	return d
}

func registerUnguarded(ctx context.Context) error {
	p := &pacer{min: 100 * time.Millisecond, max: 30 * time.Second}
	for attempt := 0; attempt < 20; attempt++ {
		if err := register(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(p.unguarded()): // want `retry delay grows exponentially with no cap`
		case <-time.After(p.broken(attempt)):
		}
	}
	return errors.New("gave up")
}
