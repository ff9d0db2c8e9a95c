package ratelimitbench

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuMeter reports, besides the wall time of ns/op, the CPU time the
// process spent per operation ("cpu-ns/op"). On a shared machine whose
// cores are oversubscribed, wall time mostly measures the wait for a core;
// CPU time measures the work.
type cpuMeter struct {
	b     *testing.B
	start time.Duration
}

func meterCPU(b *testing.B) *cpuMeter { return &cpuMeter{b: b, start: cpuTime()} }

// report must be called after the benchmark loop.
func (m *cpuMeter) report() {
	if m.b.N > 0 {
		m.b.ReportMetric(float64(cpuTime()-m.start)/float64(m.b.N), "cpu-ns/op")
	}
}
