package caps

import (
	"cmp"
	"context"
	"time"

	"backoff/capslib"
)

const (
	maxDelay = 10 * time.Second
	minDelay = 50 * time.Millisecond
)

func report(time.Duration) {}

// An overflow guard or-ed with the cap test: capped.
func overflowGuard(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		d *= 2
		if d > maxDelay || d <= 0 {
			d = maxDelay
		}
	}
}

// capped returns max when d is above it, d otherwise.
func capped(d, max time.Duration) time.Duration {
	if d > max {
		return max
	}
	return d
}

// A helper that returns the smaller of the delay and its limit: capped.
func cappedByHelper(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		d = capped(d*2, maxDelay)
	}
}

// clampToMax compares with a constant of the package.
func clampToMax(d time.Duration) time.Duration {
	if maxDelay <= d {
		return maxDelay
	}
	return d
}

func cappedByConstHelper(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		d = clampToMax(d << 1)
	}
}

// minOf is a generic min written by hand.
func minOf[T cmp.Ordered](a, b T) T {
	if a < b {
		return a
	}
	return b
}

func cappedByGenericMin(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		d = minOf(d*2, maxDelay)
	}
}

// Helpers of another package, known by their facts: capped.
func cappedAcrossPackages(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		d = capslib.Clamp(d*2, maxDelay)
	}
}

func cappedByConstAcrossPackages(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		d = capslib.Limit(d * 2)
	}
}

// A tagless switch whose case caps the delay: capped.
func switchCap(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		d <<= 1
		switch {
		case d > maxDelay:
			d = maxDelay
		}
	}
}

// The growth runs only when the doubled delay stays under the limit.
func switchGrowsBelow(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)):
		}
		switch {
		case d*2 > maxDelay:
			d = maxDelay
		default:
			d *= 2
		}
	}
}

// Near misses: still no cap.

// sometimes returns max only for even delays.
func sometimes(d, max time.Duration) time.Duration {
	if d > max && d%2 == 0 {
		return max
	}
	return d
}

func helperCapsSometimes(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)): // want `retry delay grows exponentially with no cap`
		}
		d = sometimes(d*2, maxDelay)
	}
}

// floor keeps d at least min.
func floor(d, min time.Duration) time.Duration {
	if d < min {
		return min
	}
	return d
}

func helperFloors(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)): // want `retry delay grows exponentially with no cap`
		}
		d = floor(d*2, minDelay)
	}
}

func floorAcrossPackages(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)): // want `retry delay grows exponentially with no cap`
		}
		d = capslib.Floor(d*2, minDelay)
	}
}

// The capped copy is only reported; the wait uses the delay.
func capsAnotherVariable(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		shown := d
		if shown > maxDelay {
			shown = maxDelay
		}
		report(shown)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)): // want `retry delay grows exponentially with no cap`
		}
		d *= 2
	}
}

// A floor or-ed with the overflow guard: no cap.
func floorWithGuard(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)): // want `retry delay grows exponentially with no cap`
		}
		d *= 2
		if d <= 0 || d < minDelay {
			d = minDelay
		}
	}
}

// A floor alone: no cap.
func floorAlone(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)): // want `retry delay grows exponentially with no cap`
		}
		d *= 2
		if d < minDelay {
			d = minDelay
		}
	}
}

// An earlier case takes every positive delay: the cap case never runs.
func switchCapShadowed(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(d)): // want `retry delay grows exponentially with no cap`
		}
		d <<= 1
		switch {
		case d > 0:
			report(d)
		case d > maxDelay:
			d = maxDelay
		}
	}
}
