package idempotency

import (
	"bytes"
	"container/list"
	"context"
	"sync"
	"time"
)

// DefaultMaxEntries is the bound of a MemoryStore when
// MemoryConfig.MaxEntries is zero.
const DefaultMaxEntries = 10000

// MemoryConfig configures a [MemoryStore]. The zero value selects the
// documented defaults.
type MemoryConfig struct {
	// MaxEntries bounds the number of records held. When a new claim would
	// exceed it, the oldest record (the one claimed first) is dropped,
	// expired or not. Dropping a completed record before its TTL means a
	// late retry with its key runs the handler again, and dropping a claim
	// still in progress lets a duplicate run it concurrently: size the store
	// for the number of keyed requests the TTL spans. Zero means
	// DefaultMaxEntries (10000). Negative is invalid.
	MaxEntries int
}

// MemoryStore is a [Store] in the memory of one process: it deduplicates
// the requests that reach this process only, so it suits a single instance,
// tests, and development. It holds at most MaxEntries records, dropping the
// oldest first, and forgets a record once its time to live has passed.
//
// Create one with [NewMemoryStore]; the zero value is not usable. A
// MemoryStore is safe for concurrent use, and its methods never fail.
type MemoryStore struct {
	mu      sync.Mutex
	max     int
	records map[RecordID]*list.Element // of *memRecord
	order   list.List                  // oldest claim first
}

type memRecord struct {
	id      RecordID
	value   []byte
	expires time.Time
}

// NewMemoryStore returns an empty MemoryStore, or an error wrapping
// ErrInvalidConfig if cfg is invalid.
func NewMemoryStore(cfg MemoryConfig) (*MemoryStore, error) {
	if cfg.MaxEntries < 0 {
		return nil, configError("MemoryConfig.MaxEntries", cfg.MaxEntries, "must not be negative")
	}
	m := &MemoryStore{max: cfg.MaxEntries, records: make(map[RecordID]*list.Element)}
	if m.max == 0 {
		m.max = DefaultMaxEntries
	}
	return m, nil
}

var _ Store = (*MemoryStore)(nil)

// lookup returns id's live record, dropping it if it has expired. It is
// called with m.mu held.
func (m *MemoryStore) lookup(id RecordID, now time.Time) *list.Element {
	e := m.records[id]
	if e == nil {
		return nil
	}
	if !now.Before(e.Value.(*memRecord).expires) {
		m.drop(e)
		return nil
	}
	return e
}

func (m *MemoryStore) drop(e *list.Element) {
	delete(m.records, e.Value.(*memRecord).id)
	m.order.Remove(e)
}

// Claim implements [Store.Claim].
func (m *MemoryStore) Claim(_ context.Context, id RecordID, value []byte, ttl time.Duration) ([]byte, bool, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.lookup(id, now); e != nil {
		return e.Value.(*memRecord).value, false, nil
	}
	for m.order.Len() >= m.max {
		m.drop(m.order.Front())
	}
	r := &memRecord{id: id, value: bytes.Clone(value), expires: now.Add(ttl)}
	m.records[id] = m.order.PushBack(r)
	return nil, true, nil
}

// Replace implements [Store.Replace].
func (m *MemoryStore) Replace(_ context.Context, id RecordID, old, value []byte, ttl time.Duration) (bool, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.lookup(id, now)
	if e == nil {
		return false, nil
	}
	r := e.Value.(*memRecord)
	if !bytes.Equal(r.value, old) {
		return false, nil
	}
	r.value, r.expires = bytes.Clone(value), now.Add(ttl)
	return true, nil
}

// Release implements [Store.Release].
func (m *MemoryStore) Release(_ context.Context, id RecordID, old []byte) (bool, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.lookup(id, now)
	if e == nil || !bytes.Equal(e.Value.(*memRecord).value, old) {
		return false, nil
	}
	m.drop(e)
	return true, nil
}

// Get implements [Store.Get].
func (m *MemoryStore) Get(_ context.Context, id RecordID) ([]byte, bool, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.lookup(id, now); e != nil {
		return e.Value.(*memRecord).value, true, nil
	}
	return nil, false, nil
}

// Len returns the number of records held, expired ones not yet dropped
// included.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.order.Len()
}
