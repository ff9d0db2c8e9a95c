// Package respond holds response helpers used by another package: their
// facts say which headers they set and which statuses they write.
package httpstatus

import (
	"net/http"
	"strconv"
	"time"
)

// SetRetryAfter sets Retry-After in whole seconds.
func SetRetryAfter(w http.ResponseWriter, d time.Duration) { // want SetRetryAfter:`resp\(sets \$0 Retry-After\)`
	w.Header().Set("Retry-After", strconv.Itoa(int(d.Seconds()+0.5)))
}

// SetOnHeader sets Retry-After on a header map.
func SetOnHeader(h http.Header, secs int) { // want SetOnHeader:`resp\(sets \$0 Retry-After\)`
	h.Set("retry-after", strconv.Itoa(secs))
}

// TooMany writes a bare 429 (reported where it is called).
func TooMany(w http.ResponseWriter) { // want TooMany:`resp\(writes \$0 429\)`
	http.Error(w, "slow down", http.StatusTooManyRequests)
}

// Unavailable writes 503 with Retry-After.
func Unavailable(w http.ResponseWriter, secs int) { // want Unavailable:`resp\(sets \$0 Retry-After, writes \$0 503 after Retry-After\)`
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	w.WriteHeader(http.StatusServiceUnavailable)
}

// Status writes the status it is given.
func Status(w http.ResponseWriter, code int) { // want Status:`resp\(writes \$0 \$1\)`
	w.WriteHeader(code)
}

// SetNamed sets the header its caller names, unless the name is empty:
// the name is the caller's argument.
func SetNamed(w http.ResponseWriter, k, v string) { // want SetNamed:`resp\(sets \$0 \$1\)`
	if k != "" {
		w.Header().Set(k, v)
	}
}

type config struct{ header string }

// SetConfigured sets a header whose name a field holds: any header.
func (c *config) SetConfigured(w http.ResponseWriter) { // want SetConfigured:`resp\(sets \$0 \*\)`
	w.Header().Set(c.header, "1")
}

// The near miss: set only on a condition that is not about the name.
func SetSometimes(w http.ResponseWriter, on bool, k string) {
	if on {
		w.Header().Set(k, "1")
	}
}
