// Package facts has functions that wait, draw random values and check
// their context, and near misses that only look as if they did.
package facts

import (
	"context"
	"math/rand"
	"time"
)

// pause waits and does nothing fallible: a pure wait.
func pause(d time.Duration) { time.Sleep(d) } // want pause:`waits\(pure, blind\)`

// Hold waits on the context or a timer; its error is the context's.
func Hold(ctx context.Context, d time.Duration) error { // want Hold:`waits\(pure\)` Hold:"checksctx"
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Nap waits through another helper that waits.
func Nap() { pause(time.Second) } // want Nap:`waits\(pure, fixed, blind\)`

// fetchThenWait waits, but also calls something fallible.
func fetchThenWait() error { // want fetchThenWait:"waits"
	if err := fetch(); err != nil {
		return err
	}
	time.Sleep(time.Second)
	return nil
}

// retrySleeps waits only between its own attempts, inside a loop: its
// caller's next attempt follows the last one at once.
func retrySleeps() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = fetch(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// sleepy has the name of a wait and does not wait.
func sleepy() int { return 1 }

func fetch() error { return nil }

// Jitter returns a random duration.
func Jitter(d time.Duration) time.Duration { // want Jitter:"random"
	return time.Duration(rand.Int63n(int64(d)))
}

// spread draws through Jitter.
func spread(d time.Duration) time.Duration { return d/2 + Jitter(d/2) } // want spread:"random"

// randomName has the name of a random draw and returns a constant.
func randomName() time.Duration { return time.Second } // want randomName:`delay\(exponential=false, capped=false\)`

// newSource is a constructor of a generator, no random draw.
func newSource() *rand.Rand { return rand.New(rand.NewSource(1)) }

// Stopped checks the context it is given.
func Stopped(ctx context.Context, err error) bool { // want Stopped:"checksctx"
	return err != nil && ctx.Err() != nil
}

// halted checks it through Stopped.
func halted(ctx context.Context) bool { return Stopped(ctx, nil) } // want halted:"checksctx"

// carries takes a context and never looks at it.
func carries(ctx context.Context, n int) int { return n + 1 }

var _ = []any{retrySleeps, sleepy, randomName, newSource, carries, Nap, fetchThenWait, spread, halted}

const ceiling = 30 * time.Second

// Clamp is at most max, and at most d: it caps either.
func Clamp(d, max time.Duration) time.Duration { // want Clamp:`caps\(\[0 1\]\)` Clamp:`delay\(exponential=false, capped=true\)`
	if d > max {
		return max
	}
	return d
}

// limit is at most a constant.
func limit(d time.Duration) time.Duration { // want limit:`caps\(\[\], const\)` limit:`delay\(exponential=false, capped=true\)`
	if d >= ceiling {
		return ceiling
	}
	return d
}

// smaller is a min of its own: at most either.
func smaller(a, b int) int { return min(a, b) } // want smaller:`caps\(\[0 1\]\)`

// raise keeps d at least lo: a floor, no cap.
func raise(d, lo time.Duration) time.Duration { // want raise:`delay\(exponential=false, capped=false\)`
	if d < lo {
		return lo
	}
	return d
}

// sometimes caps only even values: it is at most d, never max.
func sometimes(d, max time.Duration) time.Duration { // want sometimes:`caps\(\[0\]\)` sometimes:`delay\(exponential=false, capped=false\)`
	if d > max && d%2 == 0 {
		return max
	}
	return d
}

// reassigned changes its input after the test: no cap.
func reassigned(d, max time.Duration) time.Duration { // want reassigned:`delay\(exponential=true, capped=true\)`
	if d > max {
		return max
	}
	d *= 2
	return d
}

// fixed returns a constant and caps no input.
func fixed() time.Duration { return ceiling } // want fixed:`delay\(exponential=false, capped=false\)`

var _ = []any{limit, smaller, raise, sometimes, reassigned, fixed}
