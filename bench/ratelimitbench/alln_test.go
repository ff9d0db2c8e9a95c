package ratelimitbench

import (
	"context"
	"testing"
	"time"
)

// BenchmarkAllowN: the decision alone, at explicit times (one microsecond
// apart), without reading the clock, which on a loaded virtual machine can
// cost more than the decision itself.
func BenchmarkAllowN(b *testing.B) {
	ctx := context.Background()
	start := time.Unix(1_700_000_040, 0)
	b.Run("impl=resilint", func(b *testing.B) {
		l := newResilint(b, nil)
		b.ReportAllocs()
		cpu := meterCPU(b)
		defer cpu.report()
		t := start
		for b.Loop() {
			t = t.Add(time.Microsecond)
			d, _ := l.AllowN(ctx, "user:123", t, 1)
			sinkBool = d.Allowed
		}
		if !sinkBool {
			b.Fatal("refused")
		}
	})
	b.Run("impl=x-time-rate", func(b *testing.B) {
		l := newXRate()
		b.ReportAllocs()
		cpu := meterCPU(b)
		defer cpu.report()
		t := start
		for b.Loop() {
			t = t.Add(time.Microsecond)
			sinkBool = l.AllowN(t, 1)
		}
		if !sinkBool {
			b.Fatal("refused")
		}
	})
}
