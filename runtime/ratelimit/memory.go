package ratelimit

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// entry is one key's two windows: the count of window win and of the one
// before it.
type entry struct {
	win  int64
	prev uint32
	cur  uint32
}

// roll moves e to window idx: the current count becomes the previous one
// if idx follows win, and both are dropped if idx is further on.
func (e *entry) roll(idx int64) {
	switch {
	case idx == e.win:
	case idx == e.win+1:
		e.prev, e.cur, e.win = e.cur, 0, idx
	default:
		e.prev, e.cur, e.win = 0, 0, idx
	}
}

// slot is one place of a shard's table: a key's hash and its windows.
type slot struct {
	h uint64 // the key's hash, never 0; 0 marks an empty slot
	entry
}

// shard is one independently locked part of a memoryStore: an open
// addressing table (linear probing, a power of two long, at most 7/8 full)
// of the keys' hashes. Keys themselves are not kept: see memoryStore.
type shard struct {
	mu       sync.Mutex
	slots    []slot
	n        int   // slots in use
	swept    int64 // the window of the last sweep
	overflow entry // shared by the keys that found the shard full
	_        [64]byte
}

// memoryStore is the in-process store: a fixed number of shards, each
// under its own mutex, chosen by the key's seeded 64-bit hash, in which
// the key is found by the same hash. Two keys with one hash (for a
// million keys, a chance of about 3e-8 per process, the seed being
// random) share one count: neither can then get more than the limit.
type memoryStore struct {
	seed     maphash.Seed
	shards   []shard
	mask     uint64
	perShard int
	limit    int64
	window   int64        // µs
	hint     atomic.Int64 // the window of a recent call, to spare a division
}

func newMemoryStore(limit int, window int64, maxKeys, shards int) *memoryStore {
	s := &memoryStore{
		seed:     maphash.MakeSeed(),
		shards:   make([]shard, shards),
		mask:     uint64(shards - 1),
		perShard: maxKeys / shards,
		limit:    int64(limit),
		window:   window,
	}
	for i := range s.shards {
		s.shards[i].slots = make([]slot, minSlots)
		s.shards[i].swept = minWindow
	}
	return s
}

const minSlots = 8

const minWindow = -1 << 63

// floorDiv splits t (µs since the epoch) into a window index and the µs
// elapsed in that window.
func floorDiv(t, w int64) (idx, elapsed int64) {
	idx, elapsed = t/w, t%w
	if elapsed < 0 {
		idx--
		elapsed += w
	}
	return idx, elapsed
}

// split is floorDiv(t, s.window), without dividing when t falls in the
// window of a recent call.
func (s *memoryStore) split(t int64) (idx, elapsed int64) {
	idx = s.hint.Load()
	elapsed = t - idx*s.window
	if elapsed >= 0 && elapsed < s.window {
		return idx, elapsed
	}
	idx, elapsed = floorDiv(t, s.window)
	s.hint.Store(idx)
	return idx, elapsed
}

// allow decides for n requests of key at t µs since the epoch.
func (s *memoryStore) allow(key string, t int64, n int64) Decision {
	idx, elapsed := s.split(t)
	h := maphash.String(s.seed, key)
	if h == 0 {
		h = 1
	}
	sh := &s.shards[h&s.mask]
	sh.mu.Lock()
	if idx > sh.swept {
		sh.sweep(idx)
	}
	e := sh.get(h, idx, s.perShard)
	if idx < e.win {
		// A time before the key's current window (a clock that went back,
		// or an explicit time out of order): judge it at the start of the
		// key's window, where the previous window weighs most.
		idx, elapsed = e.win, 0
	}
	e.roll(idx)
	d := Decision{limit: s.limit, n: n, prev: int64(e.prev), cur: int64(e.cur), elapsed: elapsed, window: s.window}
	if n <= s.limit && fits(d.prev, d.cur, n, s.limit, elapsed, s.window) {
		e.cur += uint32(n)
		d.cur += n
		d.Allowed = true
	}
	sh.mu.Unlock()
	return d
}

// get returns the entry of hash h, adding it (in window idx) if there is
// room, or the overflow entry if the shard holds maxKeys keys.
func (sh *shard) get(h uint64, idx int64, maxKeys int) *entry {
	mask := uint64(len(sh.slots) - 1)
	i := h >> 16 & mask
	for {
		sl := &sh.slots[i]
		if sl.h == h {
			return &sl.entry
		}
		if sl.h == 0 {
			break
		}
		i = (i + 1) & mask
	}
	if sh.n >= maxKeys {
		return &sh.overflow
	}
	if (sh.n+1)*8 > len(sh.slots)*7 {
		sh.resize(len(sh.slots) * 2)
		return sh.get(h, idx, maxKeys)
	}
	sl := &sh.slots[i]
	sl.h, sl.entry = h, entry{win: idx}
	sh.n++
	return &sl.entry
}

// resize moves the slots in use to a table of size slots.
func (sh *shard) resize(size int) {
	old := sh.slots
	sh.slots = make([]slot, size)
	mask := uint64(size - 1)
	for _, sl := range old {
		if sl.h == 0 {
			continue
		}
		i := sl.h >> 16 & mask
		for sh.slots[i].h != 0 {
			i = (i + 1) & mask
		}
		sh.slots[i] = sl
	}
}

// sweep drops the keys whose both windows are over at window idx, and
// shrinks the table if it is mostly empty.
func (sh *shard) sweep(idx int64) {
	sh.swept = idx
	live := 0
	for i := range sh.slots {
		sl := &sh.slots[i]
		if sl.h != 0 && sl.win < idx-1 {
			sl.h = 0 // rebuilt below: an empty slot must not break a probe chain
		} else if sl.h != 0 {
			live++
		}
	}
	if live == sh.n {
		return
	}
	sh.n = live
	size := minSlots
	for size*7 < live*8*2 { // room to grow to twice as many
		size *= 2
	}
	sh.resize(size)
}

// len returns the number of keys held.
func (s *memoryStore) len() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += sh.n
		sh.mu.Unlock()
	}
	return n
}
