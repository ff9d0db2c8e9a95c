// Package steps computes the pauses between attempts for its callers.
package steps

import (
	"math"
	"math/rand/v2"
	"time"
)

// Doubling is 1s, 2s, 4s, ... : no random part.
func Doubling(n int) time.Duration {
	return time.Duration(math.Pow(2, float64(n))) * time.Second
}

// Bounded doubles from lo up to hi: no random part.
func Bounded(n int, lo, hi time.Duration) time.Duration {
	d := lo << n
	if d > hi || d <= 0 {
		return hi
	}
	return d
}

// Spread draws the pause at random below a doubling ceiling.
func Spread(n int) time.Duration {
	return rand.N(time.Duration(1<<n) * time.Second)
}

// Base is the first pause; a caller may change it, at any time.
var Base = time.Second

// Scaled doubles from Base: state the package's users change, no
// function of its inputs alone.
func Scaled(n int) time.Duration {
	return Base << n
}

// Schedule holds a policy's state.
type Schedule struct{ cur time.Duration }

// Next is a method that steps the schedule: no function of its inputs.
func (s *Schedule) Next() time.Duration {
	s.cur *= 2
	return s.cur
}

// Func answers the pause before attempt n.
type Func func(n int) time.Duration
