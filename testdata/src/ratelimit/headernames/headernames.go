// Package headernames: rate limiters whose come-back header is named by
// their configuration, not by a constant in the code.
package headernames

import (
	"net/http"
	"strconv"
)

// Names are the response headers a limiter sets; a caller may rename one,
// or leave it empty to send none.
type Names struct {
	RetryAfter string
	Limit      string
}

// DefaultNames are used when the caller gives none.
var DefaultNames = Names{RetryAfter: "Retry-After", Limit: "X-Limit"}

type counter interface {
	over(key string) (bool, int)
}

// Limiter refuses a key over its limit.
type Limiter struct {
	c       counter
	names   Names
	limited func(w http.ResponseWriter, r *http.Request)
}

// New keeps the caller's names, or the defaults.
func New(c counter, names *Names) *Limiter {
	l := &Limiter{c: c, names: DefaultNames, limited: refused}
	if names != nil {
		l.names = *names
	}
	return l
}

func refused(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "too many requests", http.StatusTooManyRequests)
}

// setHeader sets the header named k, unless the caller turned it off
// with an empty name.
func setHeader(w http.ResponseWriter, k, v string) {
	if k != "" {
		w.Header().Set(k, v)
	}
}

// Over answers whether the request is over its limit, having set the
// come-back header whose name the configuration holds.
func (l *Limiter) Over(w http.ResponseWriter, r *http.Request) bool {
	over, wait := l.c.over(r.RemoteAddr)
	if !over {
		return false
	}
	setHeader(w, l.names.RetryAfter, strconv.Itoa(wait))
	return true
}

// Wrap refuses through its hook after Over said so: the 429 carries the
// configured come-back header, whatever it is called.
func (l *Limiter) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l.Over(w, r) {
			l.limited(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Direct sets the configured name itself before its 429.
func (l *Limiter) Direct(w http.ResponseWriter, r *http.Request) {
	if over, wait := l.c.over(r.RemoteAddr); over {
		w.Header().Set(l.names.RetryAfter, strconv.Itoa(wait))
		http.Error(w, "too many requests", http.StatusTooManyRequests)
	}
}

// Near miss: the helper is given a constant name, which is no come-back
// header.
func (l *Limiter) OnlyLimit(w http.ResponseWriter, r *http.Request) {
	if over, _ := l.c.over(r.RemoteAddr); over {
		setHeader(w, "X-Limit", "100")
		http.Error(w, "too many requests", http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
	}
}

// Near miss: the header is set only on some other condition than its
// name being given, so the 429 may go without it.
func (l *Limiter) Sometimes(w http.ResponseWriter, r *http.Request) {
	if over, wait := l.c.over(r.RemoteAddr); over {
		setIf(w, r.URL.Query().Has("verbose"), l.names.RetryAfter, strconv.Itoa(wait))
		http.Error(w, "too many requests", http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header`
	}
}

func setIf(w http.ResponseWriter, on bool, k, v string) {
	if on {
		w.Header().Set(k, v)
	}
}
