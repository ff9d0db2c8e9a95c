// Package hooks: rate-limit middlewares that set their headers and then
// hand the refused request to a hook, whose default writes the 429.
package hooks

import (
	"net/http"
	"strconv"
	"time"
)

type decision struct {
	allowed bool
	reset   time.Time
}

type limiter interface {
	decide(r *http.Request) decision
}

// Refused handles a request the limiter refused.
type Refused func(w http.ResponseWriter, r *http.Request)

// Middleware sets the reset time and calls its hook: the hook's 429 says
// when to come back.
type Middleware struct {
	lim       limiter
	OnRefused Refused
}

// New keeps DefaultRefused as the hook.
func New(lim limiter) *Middleware {
	return &Middleware{lim: lim, OnRefused: DefaultRefused}
}

// DefaultRefused writes the 429; the middleware has set X-RateLimit-Reset.
func DefaultRefused(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "limit exceeded", http.StatusTooManyRequests)
}

func (m *Middleware) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := m.lim.decide(r)
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(d.reset.Unix(), 10))
		if !d.allowed {
			m.OnRefused(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Quiet calls its hook without saying when: the hook's 429 is reported.
type Quiet struct {
	lim  limiter
	hook func(http.ResponseWriter, *http.Request)
}

func NewQuiet(lim limiter) *Quiet { return &Quiet{lim: lim, hook: refuseQuietly} }

func refuseQuietly(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
}

func (q *Quiet) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Limit", "100") // the limit is not when to come back
		if !q.lim.decide(r).allowed {
			q.hook(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Both is kept in a hook whose caller sets Retry-After, and registered as
// a handler of its own, where nothing is set: reported.
type Both struct {
	lim    limiter
	onDeny Refused
}

func NewBoth(lim limiter, mux *http.ServeMux) *Both {
	mux.HandleFunc("/denied", deny)
	return &Both{lim: lim, onDeny: deny}
}

func deny(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
}

func (b *Both) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !b.lim.decide(r).allowed {
			w.Header().Set("Retry-After", "1")
			b.onDeny(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Sometimes sets the reset time on one path only: reported.
type Sometimes struct {
	lim   limiter
	onHit Refused
}

func NewSometimes(lim limiter) *Sometimes { return &Sometimes{lim: lim, onHit: hit} }

func hit(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
}

func (s *Sometimes) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := s.lim.decide(r)
		if d.allowed {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodGet {
			w.Header().Set("RateLimit-Reset", "3")
			s.onHit(w, r)
			return
		}
		s.onHit(w, r)
	})
}

// A handler that states the reset time itself, in the IETF draft's field:
// it says when to come back.
func resetHandler(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("RateLimit-Reset", "30")
	w.WriteHeader(http.StatusTooManyRequests)
}

var _ = resetHandler
