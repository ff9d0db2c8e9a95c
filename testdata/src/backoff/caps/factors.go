package caps

import (
	"context"
	"time"
)

// Growth by a factor that is no integer: exponential all the same.
func growsByHalf(ctx context.Context) error {
	d := 200 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)): // want `retry delay grows exponentially with no cap`
		}
		d = time.Duration(float64(d) * 1.5)
	}
}

// Adding the delay to itself doubles it.
func growsByAdding(ctx context.Context) error {
	d := 200 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)): // want `retry delay grows exponentially with no cap`
		}
		d += d
	}
}

// The near miss: the factor applies to a fixed base, not to the delay
// itself, and adding a constant grows it linearly.
func growsLinearly(ctx context.Context) error {
	base := 200 * time.Millisecond
	d := time.Duration(float64(base) * 1.5)
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		d += 100 * time.Millisecond
	}
}

// The near miss: growth by a factor, capped.
func growsByHalfCapped(ctx context.Context) error {
	d := 200 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		d = min(time.Duration(float64(d)*1.5), 10*time.Second)
	}
}
