// Package guarded: a limiter whose check sets Retry-After itself on the
// path where it answers "over the limit", and a handler that writes the
// 429 only under that answer.
package guarded

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

type limiter struct {
	mu     sync.Mutex
	used   map[string]int
	max    int
	window time.Duration
}

// over reports whether key is over its budget; when it is, it has set
// Retry-After on w.
func (l *limiter) over(w http.ResponseWriter, key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.used[key] >= l.max {
		w.Header().Set("Retry-After", strconv.Itoa(int(l.window.Seconds())))
		return true
	}
	l.used[key]++
	return false
}

// full reports whether key is over its budget too, but sets Retry-After
// only on the way that lets the request through.
func (l *limiter) full(w http.ResponseWriter, key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.used[key] >= l.max {
		return true
	}
	l.used[key]++
	w.Header().Set("Retry-After", "0")
	return false
}

// guard writes the 429 under over's answer, kept in a local: Retry-After
// is set. Not reported.
func (l *limiter) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limited := l.over(w, r.RemoteAddr)
		if limited {
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// guardInline tests the answer in place: not reported.
func (l *limiter) guardInline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodOptions && l.over(w, r.RemoteAddr) {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// guardFull writes the 429 under full's answer, which set nothing on that
// path: reported.
func (l *limiter) guardFull(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l.full(w, r.RemoteAddr) {
			w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
			return
		}
		next.ServeHTTP(w, r)
	})
}
