// Package capslib holds delay helpers of another package: the backoff
// fixture backoff/caps calls them, and reads what they do from their facts.
package capslib

import "time"

const ceiling = 20 * time.Second

// Clamp returns d, or max when d is above it: at most max.
func Clamp(d, max time.Duration) time.Duration {
	if d > max {
		return max
	}
	return d
}

// Limit compares with a constant of the package: at most 20s.
func Limit(d time.Duration) time.Duration {
	if ceiling < d {
		return ceiling
	}
	return d
}

// Floor keeps d at least min: no cap.
func Floor(d, min time.Duration) time.Duration {
	if d < min {
		return min
	}
	return d
}
