package breaker

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"
)

// TestStress runs many goroutines through a breaker whose dependency keeps
// going down and coming back, with a clock that keeps moving, and checks the
// invariants that must hold whatever the interleaving: transitions form one
// chain, delivered in order; the operation is reached only by admitted calls;
// a half-open round never has more trials in flight than allowed.
func TestStress(t *testing.T) {
	for _, c := range []Config{
		{WindowSize: 20, MinimumCalls: 10, HalfOpenTrials: 4, HalfOpenSuccesses: 3, OpenWait: time.Millisecond, MaxOpenWait: 8 * time.Millisecond},
		{WindowDuration: 50 * time.Millisecond, WindowBuckets: 5, MinimumCalls: 10, SlowCallDuration: 2 * time.Millisecond,
			HalfOpenTrials: 4, HalfOpenSuccesses: 2, OpenWait: time.Millisecond, MaxOpenWait: 8 * time.Millisecond,
			HalfOpenTimeout: 5 * time.Millisecond},
	} {
		stress(t, c)
	}
}

func stress(t *testing.T, c Config) {
	clk := newFakeClock()
	c.Clock = clk
	var (
		mu     sync.Mutex
		chain  []Transition
		rounds sync.Map // *generation -> *atomic.Int64: trials in flight per half-open round
		maxIn  atomic.Int64
		ops    atomic.Int64
		calls  atomic.Int64
		down   atomic.Bool
	)
	c.OnStateChange = func(tr Transition) {
		mu.Lock()
		chain = append(chain, tr)
		mu.Unlock()
	}
	b := mustNew(t, c)

	const workers, perWorker = 32, 2000
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWorker {
				// The environment, driven by progress rather than by a
				// goroutine's timing: time passes with every call, and the
				// dependency flaps every 1500 calls, so every run goes
				// through the transitions whatever the scheduling.
				n := calls.Add(1)
				clk.Advance(200 * time.Microsecond)
				down.Store(n/1500%2 == 1)
				op := func(ctx context.Context) error {
					ops.Add(1)
					if (w+i)%7 == 0 {
						clk.Advance(30 * time.Microsecond) // a slow one
					}
					if down.Load() {
						return errDown
					}
					if (w+i)%13 == 0 {
						return context.Canceled
					}
					return nil
				}
				var err error
				switch i % 3 {
				case 0:
					err = b.Do(context.Background(), op)
				case 1:
					_, err = Execute(context.Background(), b, func(ctx context.Context) (int, error) { return 0, op(ctx) })
				case 2: // the two steps, counting trials in flight per round
					var g *generation
					var start int64
					g, start, err = b.admit()
					if err != nil {
						break
					}
					if g.state == StateHalfOpen {
						v, _ := rounds.LoadOrStore(g, new(atomic.Int64))
						in := v.(*atomic.Int64)
						n := in.Add(1)
						for {
							m := maxIn.Load()
							if n <= m || maxIn.CompareAndSwap(m, n) {
								break
							}
						}
						err = op(context.Background())
						in.Add(-1)
					} else {
						err = op(context.Background())
					}
					o := OutcomeSuccess
					if err != nil {
						o = b.s.Classify(err)
					}
					b.record(g, start, o)
				}
				if err != nil && !errors.Is(err, errDown) && !errors.Is(err, ErrOpen) && !errors.Is(err, context.Canceled) {
					t.Errorf("unexpected error %v", err)
				}
			}
		}()
	}
	wg.Wait()

	m := b.Metrics()
	assert.Equal(t, calls.Load(), ops.Load()+int64(m.Rejected), "every call was either run or rejected")
	mu.Lock()
	defer mu.Unlock()
	require.GreaterOrEqual(t, len(chain), 4, "the stress test must go through transitions")
	for i, tr := range chain {
		require.Equal(t, uint64(i+1), tr.Generation, "transitions delivered in order, none lost")
		if i > 0 {
			require.Equal(t, chain[i-1].To, tr.From, "transitions form a chain")
			require.False(t, tr.Time.Before(chain[i-1].Time))
		}
		require.NotEqual(t, tr.From, tr.To)
	}
	assert.Equal(t, m.Generation, uint64(len(chain)))
	assert.LessOrEqual(t, maxIn.Load(), int64(b.s.HalfOpenTrials), "trials in flight in one half-open round")
	t.Logf("%d transitions, %d rejected of %d calls, max trials in flight %d", len(chain), m.Rejected, calls.Load(), maxIn.Load())
}
