// Package memory has functions that touch only this process's memory
// and synchronize with its other goroutines, and near misses that start
// a goroutine, receive from a channel or wait for a group.
package memory

import (
	"sync"
	"sync/atomic"
	"time"
)

type table struct {
	mu   sync.Mutex
	seen map[string]time.Time
}

// mark writes the table under its mutex.
func (t *table) mark(key string) bool { // want mark:"hostlocal\\(in memory, syncs\\)"
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.seen[key]; ok {
		return false
	}
	t.seen[key] = time.Now()
	return true
}

// markTwice calls one that syncs: it syncs too.
func (t *table) markTwice(a, b string) bool { // want markTwice:"hostlocal\\(in memory, syncs\\)"
	return t.mark(a) && t.mark(b)
}

var hits atomic.Int64

// count adds atomically.
func count() int64 { return hits.Add(1) } // want count:"hostlocal\\(in memory, syncs\\)"

// size touches memory but shares nothing with other goroutines.
func size(m map[string]int) int { return len(m) } // want size:"hostlocal\\(binds nothing\\)"

// The near misses: a goroutine started, a channel received from, a
// group waited for. Each may wait on anything.
func (t *table) markLater(key string) { // want markLater:"hostlocal\\(binds nothing\\)"
	go t.mark(key)
}

func (t *table) markFrom(keys chan string) bool { // want markFrom:"hostlocal\\(binds nothing\\)"
	return t.mark(<-keys)
}

func (t *table) markAll(keys []string) { // want markAll:"hostlocal\\(binds nothing\\)"
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		t.mark(k)
		wg.Done()
	}
	wg.Wait()
}
