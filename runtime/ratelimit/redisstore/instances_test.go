package redisstore_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/ratelimit"
)

// TestInstancesShareTheLimit: three instances of a service, each with its
// own Limiter and middleware over one Redis store, requests balanced in
// turn: the limit holds for the whole fleet, and each instance's headers
// count the fleet's requests.
func TestInstancesShareTheLimit(t *testing.T) {
	b := newBackend(t)
	var handlers []http.Handler
	for range 3 {
		l := newLimiter(t, b.store, 10, time.Minute)
		mw, err := ratelimit.NewMiddleware(ratelimit.MiddlewareConfig{Limiter: l, Key: ratelimit.Header("X-Api-Key")})
		if err != nil {
			t.Fatal(err)
		}
		handlers = append(handlers, mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})))
	}
	admitted := 0
	var last *httptest.ResponseRecorder
	for i := range 30 {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("X-Api-Key", "client-1")
		w := httptest.NewRecorder()
		handlers[i%3].ServeHTTP(w, r)
		if w.Code == http.StatusOK {
			admitted++
		}
		last = w
	}
	if admitted != 10 {
		t.Errorf("the fleet admitted %d, want 10", admitted)
	}
	if last.Code != http.StatusTooManyRequests || last.Header().Get("X-RateLimit-Remaining") != "0" || last.Header().Get("Retry-After") == "" {
		t.Errorf("last answer: %d %v", last.Code, last.Header())
	}
}
