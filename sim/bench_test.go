package sim

import "testing"

// BenchmarkSimulate measures the cost of the simulation per simulated
// client: 100,000 clients through a 1-minute outage (outage mode) and the
// re-storm scenario, with full jitter and without.
func BenchmarkSimulate(b *testing.B) {
	const clients = 100_000
	for _, mode := range []string{"outage", "restorm"} {
		for _, pol := range []string{"full", "none"} {
			b.Run(mode+"/"+pol, func(b *testing.B) {
				s, shape := preset(b, mode, clients, 1)
				c := refClient(b, pol, shape)
				b.ReportAllocs()
				var calls int64
				for b.Loop() {
					calls = mustRun(b, s, c).Calls
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/clients, "ns/client")
				b.ReportMetric(float64(calls)/clients, "calls/client")
			})
		}
	}
}
