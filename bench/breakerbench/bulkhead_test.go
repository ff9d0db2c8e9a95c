package breakerbench

import (
	"context"
	"runtime"
	"testing"

	"golang.org/x/sync/semaphore"

	"github.com/resilint/resilint/bench/breakerbench/lockfree"
	"github.com/resilint/resilint/runtime/bulkhead"
)

// bulkheadCases returns acquire-then-release through each implementation,
// with the given number of slots. Waiting callers wait without a time limit
// (semaphore has none), so nothing is rejected.
func bulkheadCases(tb testing.TB, slots int) []struct {
	name string
	call func()
} {
	ctx := context.Background()
	bh, err := bulkhead.New(bulkhead.Config{MaxConcurrent: slots, MaxWait: 1 << 62})
	if err != nil {
		tb.Fatal(err)
	}
	lf, err := lockfree.New(lockfree.Config{MaxConcurrent: slots, MaxWait: 1 << 62})
	if err != nil {
		tb.Fatal(err)
	}
	sem := semaphore.NewWeighted(int64(slots))
	op := func(context.Context) error { return nil }
	return []struct {
		name string
		call func()
	}{
		{"impl=resilint-Acquire", func() {
			if bh.Acquire(ctx) == nil {
				bh.Release()
			}
		}},
		{"impl=resilint-Do", func() { _ = bh.Do(ctx, op) }},
		{"impl=lockfree-Acquire", func() {
			if lf.Acquire(ctx) == nil {
				lf.Release()
			}
		}},
		{"impl=semaphore", func() {
			if sem.Acquire(ctx, 1) == nil {
				sem.Release(1)
			}
		}},
	}
}

// BenchmarkBulkhead measures taking and giving back a slot: serially; from
// GOMAXPROCS goroutines with a slot for each (no waiting); and from
// GOMAXPROCS goroutines sharing one slot, so that callers queue and slots are
// handed over.
func BenchmarkBulkhead(b *testing.B) {
	for _, mode := range []string{"serial", "parallel", "contended"} {
		slots := 64
		if mode == "contended" {
			slots = 1
		}
		for _, c := range bulkheadCases(b, slots) {
			b.Run("mode="+mode+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				call := c.call
				if mode == "serial" {
					for b.Loop() {
						call()
					}
					return
				}
				if mode == "contended" {
					b.SetParallelism(4) // 4×GOMAXPROCS goroutines for one slot
				}
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						call()
					}
				})
			})
		}
	}
	_ = runtime.GOMAXPROCS(0)
}
