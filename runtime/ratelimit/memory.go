package ratelimit

import (
	"hash/maphash"
	"strings"
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

// shard is one independently locked part of a memoryStore.
type shard struct {
	mu       sync.Mutex
	m        map[string]*entry
	swept    int64 // the window of the last sweep
	overflow entry // shared by the keys that found the shard full
	_        [64]byte
}

// memoryStore is the in-process store: a fixed number of shards, each a map
// from key to entry under its own mutex.
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
		s.shards[i].m = make(map[string]*entry)
		s.shards[i].swept = minWindow
	}
	return s
}

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
	sh := &s.shards[maphash.String(s.seed, key)&s.mask]
	sh.mu.Lock()
	if idx > sh.swept {
		sh.sweep(idx)
	}
	e := sh.m[key]
	if e == nil {
		if len(sh.m) < s.perShard {
			e = &entry{win: idx}
			sh.m[strings.Clone(key)] = e
		} else {
			e = &sh.overflow
		}
	}
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

// sweep drops the keys whose both windows are over at window idx.
func (sh *shard) sweep(idx int64) {
	for k, e := range sh.m {
		if e.win < idx-1 {
			delete(sh.m, k)
		}
	}
	sh.swept = idx
}

// len returns the number of keys held.
func (s *memoryStore) len() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}
