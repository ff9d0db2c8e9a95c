package ratelimit

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func byUser(r *http.Request) (string, error) {
	u := r.Header.Get("User")
	if u == "" {
		return "", ErrNoKey
	}
	return "user:" + u, nil
}

type handlerCount struct{ n atomic.Int64 }

func (h *handlerCount) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.n.Add(1)
	w.WriteHeader(http.StatusNoContent)
}

func serve(h http.Handler, user string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, "/recommendations", nil)
	if user != "" {
		r.Header.Set("User", user)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func mustMiddleware(t *testing.T, cfg MiddlewareConfig) *Middleware {
	t.Helper()
	m, err := NewMiddleware(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func wantHeaders(t *testing.T, w *httptest.ResponseRecorder, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got := w.Header().Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
}

func TestMiddlewareConfigErrors(t *testing.T) {
	l := mustNew(t, Config{Limit: 1})
	for _, tc := range []struct {
		cfg   MiddlewareConfig
		field string
	}{
		{MiddlewareConfig{Key: RemoteIP}, "MiddlewareConfig.Limiter"},
		{MiddlewareConfig{Limiter: l}, "MiddlewareConfig.Key"},
		{MiddlewareConfig{Limiter: l, Key: RemoteIP, Policy: "a\nb"}, "MiddlewareConfig.Policy"},
		{MiddlewareConfig{Limiter: l, Key: RemoteIP, UnavailableRetryAfter: -1}, "MiddlewareConfig.UnavailableRetryAfter"},
	} {
		_, err := NewMiddleware(tc.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("%+v: %v, want a *ConfigError for %s", tc.cfg, err, tc.field)
		}
	}
}

// TestMiddlewareHeaders: 60 per minute. The same headers on admitted and
// refused answers; 429 with a Retry-After of whole seconds.
func TestMiddlewareHeaders(t *testing.T) {
	c := &fakeClock{t: epoch.Add(20 * time.Second)}
	l := mustNew(t, Config{Limit: 60, Window: time.Minute, Clock: c})
	next := &handlerCount{}
	h := mustMiddleware(t, MiddlewareConfig{Limiter: l, Key: byUser}).Wrap(next)

	w := serve(h, "ann")
	if w.Code != http.StatusNoContent {
		t.Fatalf("first: %d", w.Code)
	}
	// One request in this window: 59 left until it counts as the previous
	// window's and weighs less (t: 40s to the boundary + 1s, when
	// 1×(1−q) ≤ 0 ... the whole next window: 100s).
	wantHeaders(t, w, map[string]string{
		"RateLimit-Policy":      `"default";q=60;w=60`,
		"RateLimit":             `"default";r=59;t=100`,
		"X-RateLimit-Limit":     "60",
		"X-RateLimit-Remaining": "59",
		"X-RateLimit-Reset":     "100",
		"Retry-After":           "",
	})
	for range 59 {
		serve(h, "ann")
	}
	w = serve(h, "ann")
	if w.Code != http.StatusTooManyRequests {
		t.Fatalf("61st: %d", w.Code)
	}
	// 60 this window: one more fits when 60×(1−q) + 1 ≤ 60, q = 1/60: 40s
	// to the boundary and 1s into the next window.
	wantHeaders(t, w, map[string]string{
		"Retry-After":           "41",
		"RateLimit-Policy":      `"default";q=60;w=60`,
		"RateLimit":             `"default";r=0;t=41`,
		"X-RateLimit-Remaining": "0",
		"X-RateLimit-Reset":     "100",
	})
	if next.n.Load() != 60 {
		t.Errorf("handler ran %d times, want 60", next.n.Load())
	}
	if w := serve(h, "bob"); w.Code != http.StatusNoContent {
		t.Errorf("another user: %d", w.Code)
	}
	if w := serve(h, ""); w.Code != http.StatusBadRequest || next.n.Load() != 61 {
		t.Errorf("no key: %d, handler ran %d", w.Code, next.n.Load())
	}
}

// TestRetryAfterNeverZero: a refusal that clears in a microsecond still
// says 1.
func TestRetryAfterNeverZero(t *testing.T) {
	c := &fakeClock{t: epoch.Add(500 * time.Millisecond)}
	l := mustNew(t, Config{Limit: 1, Window: time.Second, Clock: c})
	m := mustMiddleware(t, MiddlewareConfig{Limiter: l, Key: byUser, Policy: `a"b`})
	h := m.Wrap(&handlerCount{})
	serve(h, "ann")
	// The request weighs 1µs/1s at the end of the next window.
	c.Advance(1500*time.Millisecond - time.Microsecond)
	w := serve(h, "ann")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("%d Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	// Windows that are not whole seconds have no w; names are quoted.
	l2 := mustNew(t, Config{Limit: 1, Window: 1500 * time.Millisecond})
	w = serve(mustMiddleware(t, MiddlewareConfig{Limiter: l2, Key: byUser, Policy: `a"b`}).Wrap(&handlerCount{}), "x")
	wantHeaders(t, w, map[string]string{"RateLimit-Policy": `"a\"b";q=1`})
}

// failStore fails every call, or hangs until its context is done and
// then some, ignoring it, when hang is set.
type failStore struct {
	hang  bool
	calls atomic.Int64
}

var errDown = errors.New("connection refused")

func (s *failStore) Add(ctx context.Context, key string, now time.Time, window time.Duration, limit, n int) (Counts, error) {
	s.calls.Add(1)
	if s.hang {
		time.Sleep(time.Hour) // a store that ignores its context
	}
	return Counts{}, errDown
}

// TestFailOpen: the store fails; the local fallback limit applies, with
// its own limit in the headers.
func TestFailOpen(t *testing.T) {
	var hooked atomic.Int64
	c := &fakeClock{t: epoch}
	l := mustNew(t, Config{Limit: 10, Window: time.Minute, Store: &failStore{}, FallbackLimit: 2, Clock: c,
		StoreErrorHook: func(err error) {
			if errors.Is(err, errDown) {
				hooked.Add(1)
			}
		}})
	next := &handlerCount{}
	h := mustMiddleware(t, MiddlewareConfig{Limiter: l, Key: byUser}).Wrap(next)
	for range 2 {
		if w := serve(h, "ann"); w.Code != http.StatusNoContent {
			t.Fatalf("%d", w.Code)
		}
	}
	w := serve(h, "ann")
	if w.Code != http.StatusTooManyRequests {
		t.Fatalf("over the fallback limit: %d", w.Code)
	}
	wantHeaders(t, w, map[string]string{"X-RateLimit-Limit": "2", "RateLimit-Policy": `"default";q=2;w=60`})
	if hooked.Load() != 3 {
		t.Errorf("hook called %d times, want 3", hooked.Load())
	}
	d, err := l.Allow(context.Background(), "bob")
	if err != nil || !d.Allowed || !d.Fallback() {
		t.Errorf("Allow: %+v %v", d, err)
	}
}

func TestFailClosed(t *testing.T) {
	l := mustNew(t, Config{Limit: 10, Store: &failStore{}, OnStoreError: StoreFailureClosed})
	next := &handlerCount{}
	h := mustMiddleware(t, MiddlewareConfig{Limiter: l, Key: byUser, UnavailableRetryAfter: 1500 * time.Millisecond}).Wrap(next)
	w := serve(h, "ann")
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "2" || next.n.Load() != 0 {
		t.Fatalf("%d Retry-After %q, handler ran %d", w.Code, w.Header().Get("Retry-After"), next.n.Load())
	}
	_, err := l.Allow(context.Background(), "ann")
	if !errors.Is(err, ErrStoreUnavailable) || !errors.Is(err, errDown) {
		t.Errorf("Allow: %v", err)
	}
}

// TestStoreHangs: a store that never answers (and ignores its context)
// holds a request StoreTimeout, then the fallback decides.
func TestStoreHangs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &failStore{hang: true}
		l := mustNew(t, Config{Limit: 10, Store: s, StoreTimeout: 50 * time.Millisecond})
		h := mustMiddleware(t, MiddlewareConfig{Limiter: l, Key: byUser}).Wrap(&handlerCount{})
		start := time.Now()
		w := serve(h, "ann")
		if w.Code != http.StatusNoContent {
			t.Fatalf("%d", w.Code)
		}
		if waited := time.Since(start); waited != 50*time.Millisecond {
			t.Errorf("waited %v, want the StoreTimeout, 50ms", waited)
		}
		// The store's goroutine ends when it returns; let it.
		time.Sleep(2 * time.Hour)
		synctest.Wait()
	})
}

// TestCallerGone: the caller's context ends while the store hangs: the
// caller's error, not a store failure, and no hook.
func TestCallerGone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hooked := false
		l := mustNew(t, Config{Limit: 10, Store: &failStore{hang: true}, StoreTimeout: time.Second,
			StoreErrorHook: func(error) { hooked = true }})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		d, err := l.Allow(ctx, "ann")
		if d.Allowed || !errors.Is(err, context.DeadlineExceeded) || hooked {
			t.Errorf("%v %v hooked %v", d.Allowed, err, hooked)
		}
		time.Sleep(2 * time.Hour)
		synctest.Wait()
	})
}

func TestRemoteIP(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.7:5123":             "ip:192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:443": "ip:2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:443": "ip:2001:db8:1:2::/64",
		"[::ffff:192.0.2.7]:80":      "ip:192.0.2.7",
		"192.0.2.8":                  "ip:192.0.2.8",
		"":                           "",
		"not-an-address:80":          "",
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = addr
		r.Header.Set("X-Forwarded-For", "203.0.113.9")
		got, err := RemoteIP(r)
		if got != want || (want == "") != errors.Is(err, ErrNoKey) {
			t.Errorf("RemoteIP(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
}

func TestForwardedIP(t *testing.T) {
	key := ForwardedIP(netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8"))
	for _, tc := range []struct {
		peer string
		xff  []string
		want string
	}{
		// A client talking directly cannot choose its key.
		{"198.51.100.1:1", []string{"203.0.113.9"}, "ip:198.51.100.1"},
		// Through one trusted proxy.
		{"10.1.1.1:1", []string{"203.0.113.9"}, "ip:203.0.113.9"},
		// A client's forged entries to the left of the real one are ignored.
		{"10.1.1.1:1", []string{"1.2.3.4, 203.0.113.9"}, "ip:203.0.113.9"},
		// Two trusted proxies, split over two fields.
		{"10.1.1.1:1", []string{"1.2.3.4, 203.0.113.9", "10.2.2.2"}, "ip:203.0.113.9"},
		{"[fd00::1]:1", []string{"2001:db8::1"}, "ip:2001:db8::/64"},
		// All trusted: the leftmost.
		{"10.1.1.1:1", []string{"10.3.3.3"}, "ip:10.3.3.3"},
		// No header: the proxy itself.
		{"10.1.1.1:1", nil, "ip:10.1.1.1"},
		// Garbage where a trusted proxy's entry should be.
		{"10.1.1.1:1", []string{"bogus"}, ""},
		// Garbage further left, past the client, does not matter.
		{"10.1.1.1:1", []string{"bogus, 203.0.113.9"}, "ip:203.0.113.9"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		got, err := key(r)
		if got != tc.want || (tc.want == "") != errors.Is(err, ErrNoKey) {
			t.Errorf("%s %q: %q, %v; want %q", tc.peer, tc.xff, got, err, tc.want)
		}
	}
}

func TestHeaderKey(t *testing.T) {
	key := Header("x-api-key")
	r := httptest.NewRequest("GET", "/", nil)
	if _, err := key(r); !errors.Is(err, ErrNoKey) {
		t.Errorf("missing: %v", err)
	}
	r.Header.Set("X-Api-Key", "sk_live_secret")
	a, err := key(r)
	if err != nil || !strings.HasPrefix(a, "h:") || len(a) != 34 || strings.Contains(a, "secret") {
		t.Errorf("%q %v", a, err)
	}
	r.Header.Set("X-Api-Key", "sk_live_other")
	if b, _ := key(r); b == a {
		t.Error("two keys, one limit")
	}
}
