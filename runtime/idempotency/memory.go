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
	// exceed it, the oldest record that may go is dropped: an expired one,
	// or a completed one (claimed first, dropped first). A claim whose
	// handler may still be running is never dropped, since its duplicate
	// would run the handler again: when every record held is such a claim,
	// Claim fails with ErrStoreFull and the middleware answers 503 with
	// Retry-After. Dropping a completed record before its TTL means a late
	// retry with its key runs the handler again: size the store for the
	// number of keyed requests the TTL spans. Zero means DefaultMaxEntries
	// (10000). Negative is invalid.
	MaxEntries int
}

// MemoryStore is a [Store] in the memory of one process: it deduplicates
// the requests that reach this process only, so it suits a single instance,
// tests, and development. It holds at most MaxEntries records, dropping the
// oldest completed or expired ones first and never a running claim, and
// forgets a record once its time to live has passed.
//
// Create one with [NewMemoryStore]; the zero value is not usable. A
// MemoryStore is safe for concurrent use; Claim fails with ErrStoreFull
// when the store is full of running claims, and no method fails otherwise.
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
	claim   bool // value is a claim: its handler may be running
}

// NewMemoryStore returns an empty MemoryStore, or a *ConfigError if cfg is
// invalid.
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

// evictable returns the oldest record that may be dropped to make room:
// an expired one, or one that is not a running claim; nil if there is none.
// It is called with m.mu held.
func (m *MemoryStore) evictable(now time.Time) *list.Element {
	for e := m.order.Front(); e != nil; e = e.Next() {
		r := e.Value.(*memRecord)
		if !r.claim || !now.Before(r.expires) {
			return e
		}
	}
	return nil
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
		e := m.evictable(now)
		if e == nil {
			return nil, false, ErrStoreFull
		}
		m.drop(e)
	}
	r := &memRecord{id: id, value: bytes.Clone(value), expires: now.Add(ttl), claim: isClaim(value)}
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
	r.value, r.expires, r.claim = bytes.Clone(value), now.Add(ttl), isClaim(value)
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
