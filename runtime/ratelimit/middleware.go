package ratelimit

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultPolicy names the policy in the RateLimit-Policy and RateLimit
// header fields when MiddlewareConfig.Policy is empty.
const DefaultPolicy = "default"

// DefaultUnavailableRetryAfter is the Retry-After of a 503 when the
// limiter fails closed and MiddlewareConfig.UnavailableRetryAfter is zero.
const DefaultUnavailableRetryAfter = time.Second

// MiddlewareConfig configures a [Middleware].
type MiddlewareConfig struct {
	// Limiter decides. Required.
	Limiter *Limiter

	// Key returns the key a request is limited by: a user, an API key
	// ([Header]), a client address ([RemoteIP], [ForwardedIP]). Required:
	// there is no default, because a key shared by every caller would let
	// one of them use up everyone's quota. An error answers 400 Bad
	// Request.
	Key KeyFunc

	// Policy names the quota policy in the RateLimit-Policy and RateLimit
	// header fields. Empty means DefaultPolicy, "default". Printable ASCII.
	Policy string

	// UnavailableRetryAfter is the Retry-After of the 503 answered when
	// the Limiter fails closed and its store failed. Zero means
	// DefaultUnavailableRetryAfter, one second. Rounded up to whole
	// seconds.
	UnavailableRetryAfter time.Duration
}

// Middleware limits the requests to an http.Handler. Create one with
// [NewMiddleware] and wrap handlers with [Middleware.Wrap]. It is safe for
// concurrent use.
//
// Every answer carries the header fields of the IETF draft "RateLimit
// header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers-11):
//
//	RateLimit-Policy: "default";q=60;w=60
//	RateLimit: "default";r=12;t=3
//
// (q the limit, w the window in seconds, present when the window is whole
// seconds; r the requests that would be admitted now, t the seconds for
// which r stays as it is), and the older X-RateLimit-Limit,
// X-RateLimit-Remaining and X-RateLimit-Reset (seconds until the whole
// limit is back). A refused request gets 429 Too Many Requests with
// Retry-After in whole seconds, at least 1, and the handler is not called.
type Middleware struct {
	limiter    *Limiter
	key        KeyFunc
	policy     string // the header value of RateLimit-Policy
	quoted     string // the policy's name as a Structured Field String
	wParam     string // ";w=60", or empty
	item       string // `"name";r=`
	limit      string
	unavailSec string
}

// NewMiddleware returns a Middleware for cfg, or a *ConfigError naming the
// first invalid field (with "MiddlewareConfig." before it).
func NewMiddleware(cfg MiddlewareConfig) (*Middleware, error) {
	if cfg.Limiter == nil {
		return nil, &ConfigError{"MiddlewareConfig.Limiter", nil, "is required"}
	}
	if cfg.Key == nil {
		return nil, &ConfigError{"MiddlewareConfig.Key", nil, "is required (RemoteIP, ForwardedIP, Header or your own)"}
	}
	name := cfg.Policy
	if name == "" {
		name = DefaultPolicy
	}
	for i := 0; i < len(name); i++ {
		if name[i] < 0x20 || name[i] > 0x7e {
			return nil, &ConfigError{"MiddlewareConfig.Policy", cfg.Policy, "must be printable ASCII"}
		}
	}
	ura := cfg.UnavailableRetryAfter
	switch {
	case ura == 0:
		ura = DefaultUnavailableRetryAfter
	case ura < 0:
		return nil, &ConfigError{"MiddlewareConfig.UnavailableRetryAfter", ura, "must not be negative"}
	}
	quoted := sfString(name)
	l := cfg.Limiter
	wParam := ""
	if w := l.Window(); w%time.Second == 0 {
		wParam = ";w=" + strconv.FormatInt(int64(w/time.Second), 10)
	}
	policy := quoted + ";q=" + strconv.Itoa(l.Limit()) + wParam
	return &Middleware{
		limiter:    l,
		key:        cfg.Key,
		policy:     policy,
		quoted:     quoted,
		wParam:     wParam,
		item:       quoted + ";r=",
		limit:      strconv.Itoa(l.Limit()),
		unavailSec: strconv.FormatInt(ceilSeconds(ura), 10),
	}, nil
}

// sfString quotes s as a Structured Field String (RFC 9651).
func sfString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// ceilSeconds rounds d up to whole seconds, at least 1.
func ceilSeconds(d time.Duration) int64 {
	if d >= math.MaxInt64-time.Second {
		return int64(math.MaxInt64 / time.Second)
	}
	return max(1, int64((d+time.Second-1)/time.Second))
}

// Wrap returns a handler that limits the requests to next.
func (m *Middleware) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, err := m.key(r)
		if err != nil {
			http.Error(w, ErrNoKey.Error(), http.StatusBadRequest)
			return
		}
		d, err := m.limiter.Allow(r.Context(), key)
		h := w.Header()
		if err != nil {
			h.Set("Retry-After", m.unavailSec)
			if errors.Is(err, ErrStoreUnavailable) {
				http.Error(w, ErrStoreUnavailable.Error(), http.StatusServiceUnavailable)
			} else {
				// The request's context is done: nobody reads the answer.
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
			}
			return
		}
		m.setHeaders(h, d)
		if !d.Allowed {
			h.Set("Retry-After", strconv.FormatInt(ceilSeconds(d.RetryAfter()), 10))
			http.Error(w, ErrLimited.Error(), http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (m *Middleware) setHeaders(h http.Header, d Decision) {
	rem := strconv.Itoa(d.Remaining())
	policy, limit := m.policy, m.limit
	if d.Limit() != m.limiter.Limit() {
		// The fallback limiter's decision, with its own limit.
		limit = strconv.Itoa(d.Limit())
		policy = m.quoted + ";q=" + limit + m.wParam
	}
	rl := m.item + rem
	if refill := d.Refill(); refill > 0 {
		rl += ";t=" + strconv.FormatInt(ceilSeconds(refill), 10)
	}
	reset := int64(0)
	if r := d.Reset(); r > 0 {
		reset = ceilSeconds(r)
	}
	h.Set("RateLimit-Policy", policy)
	h.Set("RateLimit", rl)
	h.Set("X-RateLimit-Limit", limit)
	h.Set("X-RateLimit-Remaining", rem)
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
}
