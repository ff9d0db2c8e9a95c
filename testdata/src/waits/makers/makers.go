// Package makers hands out wait functions made to order, and near misses
// whose closures do not wait.
package makers

import "time"

// Strategy is asked before each attempt.
type Strategy func(attempt uint) bool

// Linear makes a strategy that waits step times the attempt, after the
// first.
func Linear(step time.Duration) Strategy { // want Linear:"makes a wait"
	return func(attempt uint) bool {
		if attempt > 0 {
			time.Sleep(step * time.Duration(attempt))
		}
		return true
	}
}

// Fixed makes one through Linear's.
func Fixed(d time.Duration) Strategy { // want Fixed:"makes a wait"
	if d <= 0 {
		return Linear(time.Millisecond)
	}
	return Linear(d)
}

// Limit makes a strategy that only counts: no wait.
func Limit(n uint) Strategy {
	return func(attempt uint) bool { return attempt < n }
}

// Either returns a waiting closure or a counting one: not every return
// waits.
func Either(wait bool) Strategy {
	if wait {
		return Linear(time.Second)
	}
	return Limit(3)
}
