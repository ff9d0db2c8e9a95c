package breaker

import (
	"math"
	"runtime"
	"sync/atomic"
)

// cacheLinePad keeps fields written on every call away from fields that are
// mostly read.
type cacheLinePad [64]byte

// counts is what a window holds: outcomes recorded, failures, slow calls.
type counts struct {
	calls, failures, slow int64
}

// Outcome codes stored in a count window slot. Zero is an empty slot.
const (
	codeRecorded = 1 << iota
	codeFailure
	codeSlow
)

func code(failure, slow bool) uint32 {
	c := uint32(codeRecorded)
	if failure {
		c |= codeFailure
	}
	if slow {
		c |= codeSlow
	}
	return c
}

// countWindow holds the outcomes of the last len(slots) calls in a ring. Each
// call claims the next slot with one atomic add, swaps its outcome in, and
// adjusts the running counts by the difference to the outcome it replaced, so
// a success replacing a success touches no shared counter. The counts are
// exact once the recorders in flight have finished; while they run they may be
// off by those in-flight outcomes, never more.
type countWindow struct {
	next atomic.Uint64
	_    cacheLinePad
	// calls, failures and slow are written only when an outcome differs from
	// the one it replaces.
	calls, failures, slow atomic.Int64
	_                     cacheLinePad
	slots                 []atomic.Uint32
}

func newCountWindow(size int) *countWindow {
	return &countWindow{slots: make([]atomic.Uint32, size)}
}

func (w *countWindow) record(failure, slow bool) counts {
	c := code(failure, slow)
	i := w.next.Add(1) - 1
	old := w.slots[i%uint64(len(w.slots))].Swap(c)
	if old != c {
		if old == 0 {
			w.calls.Add(1)
		}
		if d := int64(c&codeFailure) - int64(old&codeFailure); d != 0 {
			w.failures.Add(d / codeFailure)
		}
		if d := int64(c&codeSlow) - int64(old&codeSlow); d != 0 {
			w.slow.Add(d / codeSlow)
		}
	}
	return w.counts()
}

func (w *countWindow) counts() counts {
	return counts{w.calls.Load(), w.failures.Load(), w.slow.Load()}
}

// Bucket sequence markers; real sequence numbers are not negative.
const (
	bucketEmpty     = math.MinInt64
	bucketResetting = math.MinInt64 + 1
)

// bucket counts the outcomes of the calls that finished in one time step.
type bucket struct {
	seq                   atomic.Int64 // time step number, or a marker
	calls, failures, slow atomic.Int64
	_                     [32]byte
}

// timeWindow holds outcomes in a ring of buckets, one per time step of width
// nanoseconds; the window is the current step and the len(buckets)-1 before
// it. A bucket whose step is over is reset by the first call that needs it for
// a new step (claimed with a compare-and-swap, so exactly one goroutine resets
// it). A recorder delayed by a whole window between reading a bucket's step and
// adding to it can land one outcome in a later step; the judged rates are not
// affected in any way that matters.
type timeWindow struct {
	width   int64
	buckets []bucket
}

func newTimeWindow(width int64, n int) *timeWindow {
	w := &timeWindow{width: width, buckets: make([]bucket, n)}
	for i := range w.buckets {
		w.buckets[i].seq.Store(bucketEmpty)
	}
	return w
}

func (w *timeWindow) record(now int64, failure, slow bool) counts {
	s := max(now, 0) / w.width
	b := &w.buckets[s%int64(len(w.buckets))]
	for {
		cur := b.seq.Load()
		if cur == bucketResetting {
			runtime.Gosched()
			continue
		}
		if cur > s {
			// This call finished long ago as far as the window is concerned.
			break
		}
		if cur < s {
			if b.seq.CompareAndSwap(cur, bucketResetting) {
				b.calls.Store(0)
				b.failures.Store(0)
				b.slow.Store(0)
				b.seq.Store(s)
			}
			continue
		}
		b.calls.Add(1)
		if failure {
			b.failures.Add(1)
		}
		if slow {
			b.slow.Add(1)
		}
		break
	}
	return w.countsAt(now)
}

// countsAt sums the buckets of the window ending at now.
func (w *timeWindow) countsAt(now int64) counts {
	s := max(now, 0) / w.width
	lo := s - int64(len(w.buckets))
	var c counts
	for i := range w.buckets {
		b := &w.buckets[i]
		if seq := b.seq.Load(); seq > lo && seq <= s {
			c.calls += b.calls.Load()
			c.failures += b.failures.Load()
			c.slow += b.slow.Load()
		}
	}
	return c
}
