package breaker

import (
	"context"
	"testing"
	"time"
)

// Benchmarks of this package alone; the side-by-side comparison with other
// breakers is in bench/breakerbench.

func benchDo(b *testing.B, c Config, open bool) {
	br := mustNew(b, c)
	ctx := context.Background()
	if open {
		for br.State() != StateOpen {
			_ = br.Do(ctx, fail)
		}
	}
	b.ReportAllocs()
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			_ = br.Do(ctx, succeed)
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				_ = br.Do(ctx, succeed)
			}
		})
	})
}

func BenchmarkClosedCountWindow(b *testing.B) { benchDo(b, Config{}, false) }
func BenchmarkClosedSlowCalls(b *testing.B) {
	benchDo(b, Config{SlowCallDuration: time.Second}, false)
}
func BenchmarkClosedTimeWindow(b *testing.B) { benchDo(b, Config{WindowDuration: time.Minute}, false) }
func BenchmarkOpen(b *testing.B)             { benchDo(b, Config{}, true) }

func BenchmarkClock(b *testing.B) {
	epoch := time.Now()
	for b.Loop() {
		_ = time.Since(epoch)
	}
}
