package retry

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each policy draws from a generator of its own, made once and seeded
// from crypto/rand: two policies do not draw the same sequence.
func TestPolicyOwnSource(t *testing.T) {
	a, b := &Policy{}, &Policy{}
	sa, sb := a.source(), b.source()
	require.NotNil(t, sa)
	assert.Same(t, sa, a.source(), "made once per policy")
	assert.NotSame(t, sa, sb, "not shared between policies")
	same := 0
	for range 64 {
		if sa.Int64N(1<<62) == sb.Int64N(1<<62) {
			same++
		}
	}
	assert.Less(t, same, 2, "two policies draw different sequences")
}

func TestPolicySourceConcurrentFirstUse(t *testing.T) {
	p := &Policy{BaseDelay: time.Millisecond, MaxDelay: time.Second}
	var wg sync.WaitGroup
	srcs := make([]Source, 16)
	for i := range srcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			srcs[i] = p.source()
			for k := range 100 {
				d := p.delay(k%8, 0)
				if d < 0 || d > time.Second {
					t.Errorf("delay %v out of [0, 1s]", d)
				}
			}
		}()
	}
	wg.Wait()
	for _, s := range srcs[1:] {
		assert.Same(t, srcs[0], s, "one generator, however many first uses race")
	}
}

func TestInjectedSourceWins(t *testing.T) {
	src := &countingSource{}
	p := &Policy{Rand: src}
	assert.Equal(t, Source(src), p.source())
}

type countingSource struct{ n int64 }

func (c *countingSource) Int64N(n int64) int64 { c.n++; return c.n % n }
