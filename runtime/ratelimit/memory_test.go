package ratelimit

import (
	"runtime"
	"strconv"
	"testing"
	"time"
)

// memoryBudget is the stated budget of the in-process store per active
// key: a 24-byte slot (the key's hash, its window and two counts) and the
// table's spare room. Keys are not kept, so their length does not count.
const memoryBudget = 64

// bytesPerKey fills a store with n active keys and returns the heap it
// holds per key.
func bytesPerKey(t testing.TB, n int) float64 {
	l, err := New(Config{Limit: 60, Window: time.Minute, MaxKeys: 2 * n})
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "user:" + strconv.Itoa(1_000_000+i)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	at := int64(1_700_000_040_000_000)
	for _, k := range keys {
		l.local.allow(k, at, 1)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if got := l.local.len(); got != n {
		t.Fatalf("%d keys held, want %d", got, n)
	}
	runtime.KeepAlive(l)
	runtime.KeepAlive(keys)
	return float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
}

// TestMemoryBudget: a million active keys within the budget.
func TestMemoryBudget(t *testing.T) {
	if testing.Short() || RaceEnabled {
		t.Skip("allocates ~100 MB; -race distorts the measure")
	}
	per := bytesPerKey(t, 1_000_000)
	t.Logf("in-process store: %.1f bytes per active key (1,000,000 keys)", per)
	if per > memoryBudget {
		t.Errorf("%.1f bytes per key, budget %d", per, memoryBudget)
	}
}

// BenchmarkMemoryPerKey reports the same figure as a metric.
func BenchmarkMemoryPerKey(b *testing.B) {
	var per float64
	for range b.N {
		per = bytesPerKey(b, 1_000_000)
	}
	b.ReportMetric(per, "B/key")
}
