package sim

import (
	"testing"
	"time"
)

// BenchmarkSimulate measures the cost of the simulation per simulated
// client: 100,000 clients through a 1-minute outage (outage mode) and the
// re-storm scenario, with full jitter and without. ns/client is wall-clock
// time; cpu-ns/client the process's CPU time (garbage collection included),
// which a loaded machine disturbs less.
func BenchmarkSimulate(b *testing.B) {
	const clients = 100_000
	for _, mode := range []string{"outage", "restorm"} {
		for _, pol := range []string{"full", "none"} {
			b.Run(mode+"/"+pol, func(b *testing.B) {
				s, shape := preset(b, mode, clients, 1)
				c := refClient(b, pol, shape)
				b.ReportAllocs()
				var calls int64
				cpu0 := cpuTime()
				for b.Loop() {
					calls = mustRun(b, s, c).Calls
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/clients, "ns/client")
				if cpu := cpuTime() - cpu0; cpu > 0 {
					b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/clients, "cpu-ns/client")
				}
				b.ReportMetric(float64(calls)/clients, "calls/client")
			})
		}
	}
}

// BenchmarkSimulate500k is the case: 500,000 clients through a
// 10-minute outage, full jitter.
func BenchmarkSimulate500k(b *testing.B) {
	const clients = 500_000
	s, _, err := Preset("outage", clients, 10*time.Minute, 1)
	if err != nil {
		b.Fatal(err)
	}
	c := refClient(b, "full", Shape{})
	b.ReportAllocs()
	var calls int64
	cpu0 := cpuTime()
	for b.Loop() {
		calls = mustRun(b, s, c).Calls
	}
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/clients, "cpu-ns/client")
	}
	b.ReportMetric(float64(calls)/clients, "calls/client")
}
