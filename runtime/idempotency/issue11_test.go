package idempotency_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/resilint/resilint/runtime/idempotency"
)

// perKey is a handler that blocks each request until its key is released.
type perKey struct {
	mu   sync.Mutex
	gate map[string]chan struct{}
	runs atomic.Int32
}

func (p *perKey) ch(key string) chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gate[key] == nil {
		p.gate[key] = make(chan struct{})
	}
	return p.gate[key]
}

func (p *perKey) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.runs.Add(1)
	<-p.ch(r.Header.Get("Idempotency-Key"))
	w.WriteHeader(http.StatusCreated)
}

// Issue 11 (5): without a Scope, two callers sending the same key shared
// one record, and the second got the first one's response. New refuses a
// Config without Scope unless the caller opts out explicitly.
func TestNewRefusesMissingScope(t *testing.T) {
	_, err := idempotency.New(idempotency.Config{})
	var ce *idempotency.ConfigError
	if !errors.As(err, &ce) || ce.Field != "Scope" {
		t.Fatalf("New(Config{}) = %v; want a *ConfigError for Scope", err)
	}
	if _, err := idempotency.New(idempotency.Config{Unscoped: true}); err != nil {
		t.Errorf("New(Config{Unscoped: true}) = %v; want the explicit opt-out accepted", err)
	}
	if _, err := idempotency.New(idempotency.Config{Scope: func(*http.Request) string { return "" }, Unscoped: true}); err == nil {
		t.Error("Scope and Unscoped both set: want a *ConfigError")
	}
}

// Issue 11 (5): a full memory store never evicts a claim whose handler is
// still running (its duplicate would run the handler again); it refuses
// the new key with 503 and Retry-After.
func TestMemoryStoreNeverEvictsRunningClaims(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem, err := idempotency.NewMemoryStore(idempotency.MemoryConfig{MaxEntries: 2})
		if err != nil {
			t.Fatal(err)
		}
		h := &perKey{gate: map[string]chan struct{}{}}
		mw := wrap(t, idempotency.Config{Store: mem}, h)
		res := map[string]chan *httptest.ResponseRecorder{}
		start := func(key string) {
			c := make(chan *httptest.ResponseRecorder, 1)
			res[key+"/"+string(rune('0'+len(res)))] = c
			go func() { c <- send(mw, http.MethodPost, "/", key, "") }()
			synctest.Wait()
		}
		// returned gives the answer of a request that did not block in the
		// handler, or nil.
		returned := func(key string) *httptest.ResponseRecorder {
			c := res[key+"/"+string(rune('0'+len(res)-1))]
			select {
			case w := <-c:
				return w
			default:
				return nil
			}
		}
		start("k1")
		start("k2")
		start("k3")
		if w := returned("k3"); w == nil {
			t.Errorf("a new key while the store is full of running claims ran the handler; want 503")
		} else if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
			t.Errorf("a new key while the store is full of running claims: %d, Retry-After %q; want 503 with Retry-After", w.Code, w.Header().Get("Retry-After"))
		}
		start("k1")
		if w := returned("k1"); w == nil {
			t.Errorf("a duplicate of a running request ran the handler again (its claim was evicted)")
		} else if w.Code != http.StatusConflict {
			t.Errorf("a duplicate of a running request: %d, want 409", w.Code)
		}
		for _, k := range []string{"k1", "k2", "k3"} {
			close(h.ch(k))
		}
		synctest.Wait()
		if n := h.runs.Load(); n != 2 {
			t.Errorf("handler ran %d times, want 2", n)
		}
		// Completed records make room for new keys again.
		close(h.ch("k4"))
		if w := send(mw, http.MethodPost, "/", "k4", ""); w.Code != http.StatusCreated {
			t.Errorf("a new key once the running requests finished: %d, want 201", w.Code)
		}
	})
}
