package ratelimit_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"time"

	"github.com/resilint/resilint/runtime/ratelimit"
)

func ExampleLimiter_AllowN() {
	l, err := ratelimit.New(ratelimit.Config{Limit: 3, Window: time.Minute})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	start := time.Date(2026, 1, 1, 12, 0, 30, 0, time.UTC) // half-way through a window
	for i := range 4 {
		d, _ := l.AllowN(ctx, "user:123", start, 1)
		fmt.Println(i+1, d.Allowed, d.Remaining(), d.RetryAfter())
	}
	// Half-way through the next window, the 3 weigh 1.5: one more fits.
	d, _ := l.AllowN(ctx, "user:123", start.Add(time.Minute), 1)
	fmt.Println("a minute later:", d.Allowed, d.Remaining())
	// Output:
	// 1 true 2 0s
	// 2 true 1 0s
	// 3 true 0 50s
	// 4 false 0 50s
	// a minute later: true 0
}

func ExampleMiddleware() {
	l, err := ratelimit.New(ratelimit.Config{Limit: 60, Window: time.Minute})
	if err != nil {
		panic(err)
	}
	mw, err := ratelimit.NewMiddleware(ratelimit.MiddlewareConfig{
		Limiter: l,
		Key:     ratelimit.Header("X-Api-Key"),
	})
	if err != nil {
		panic(err)
	}
	h := mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "recommendations")
	}))

	r := httptest.NewRequest(http.MethodGet, "/recommendations", nil)
	r.Header.Set("X-Api-Key", "key-of-one-client")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Code, w.Header().Get("RateLimit-Policy"), w.Header().Get("X-RateLimit-Remaining"))

	r.Header.Del("X-Api-Key")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Code)
	// Output:
	// 200 "default";q=60;w=60 59
	// 400
}

func ExampleDecision_Err() {
	l, _ := ratelimit.New(ratelimit.Config{Limit: 1, Window: time.Second})
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	l.AllowN(context.Background(), "job", at, 1)
	d, _ := l.AllowN(context.Background(), "job", at, 1)
	// runtime/retry waits for the RetryAfter of such an error.
	fmt.Println(d.Err())
	// Output:
	// ratelimit: rate limit exceeded
}

func ExampleForwardedIP() {
	// Behind a load balancer in 10.0.0.0/8: believe X-Forwarded-For only as
	// far as it wrote it.
	key := ratelimit.ForwardedIP(netip.MustParsePrefix("10.0.0.0/8"))

	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RemoteAddr = "10.0.3.4:41000"                            // the balancer
	r.Header.Set("X-Forwarded-For", "192.0.2.1, 198.51.100.7") // a forged entry, then the client as the balancer saw it
	fmt.Println(key(r))

	r.RemoteAddr = "203.0.113.9:5000" // a client that reached the server directly
	fmt.Println(key(r))
	// Output:
	// ip:198.51.100.7 <nil>
	// ip:203.0.113.9 <nil>
}
