package retry

import (
	"sync"
	"testing"
	"time"
)

// With no Rand, delays come from math/rand/v2's generator, randomly seeded:
// a policy's schedule is not the same every time.
func TestDefaultSourceIsRandom(t *testing.T) {
	p := &Policy{BaseDelay: time.Second, MaxDelay: time.Hour}
	seen := map[time.Duration]bool{}
	for range 64 {
		seen[p.Delay(5, 0, nil)] = true
	}
	if len(seen) < 60 {
		t.Errorf("64 draws below a 32s cap gave %d distinct delays; want a random source", len(seen))
	}
}

func TestDefaultSourceConcurrentUse(t *testing.T) {
	p := &Policy{BaseDelay: time.Millisecond, MaxDelay: time.Second}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for k := range 100 {
				if d := p.delay(k%8, 0); d < 0 || d > time.Second {
					t.Errorf("delay %v out of [0, 1s]", d)
				}
			}
		})
	}
	wg.Wait()
}

func TestInjectedSourceWins(t *testing.T) {
	src := &countingSource{}
	p := &Policy{Rand: src, BaseDelay: time.Second, MaxDelay: time.Second}
	p.Delay(0, 0, nil)
	p.delay(0, 0)
	if src.n != 2 {
		t.Errorf("Rand drawn %d times, want 2", src.n)
	}
	other := &countingSource{}
	p.Delay(0, 0, other)
	if src.n != 2 || other.n != 1 {
		t.Errorf("Delay's src not used: Rand drawn %d times, src %d", src.n, other.n)
	}
}

type countingSource struct{ n int64 }

func (c *countingSource) Int64N(n int64) int64 { c.n++; return c.n % n }
