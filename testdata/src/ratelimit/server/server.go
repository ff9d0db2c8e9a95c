package server

import (
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"ratelimit/respond"
)

type limiter struct{ rl *rate.Limiter }

func (l *limiter) allow(*http.Request) bool { return l.rl.Allow() }

// A bare 429.
func bare(l *limiter) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !l.allow(r) {
			w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After header on this path: clients retry at once`
			return
		}
		w.Write([]byte("ok"))
	}
}

type handler struct{ l *limiter }

// ServeHTTP writes 503 with http.Error and no header.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.l.allow(r) {
		http.Error(w, "busy", 503) // want `503 Service Unavailable written without a Retry-After header on this path: clients retry at once and keep an overloaded service down`
		return
	}
}

// The header is set on one branch only.
func oneBranch(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Retry-After", "1")
	}
	w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After`
}

// The header is set after the status: never sent.
func setAfter(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After`
	w.Header().Set("Retry-After", "1")
}

// A helper of another package writes the bare 429.
func viaHelper(w http.ResponseWriter, r *http.Request) {
	respond.TooMany(w) // want `429 Too Many Requests written by respond.TooMany \(at respond.go:\d+\) without a Retry-After header`
}

// A helper of this package writes a status it is given.
func local(w http.ResponseWriter, code int) {
	w.WriteHeader(code)
}

func viaStatusParam(w http.ResponseWriter, r *http.Request) {
	local(w, http.StatusTooManyRequests)          // want `429 Too Many Requests written by local \(at server.go:\d+\) without`
	respond.Status(w, http.StatusTooManyRequests) // want `429 Too Many Requests written by respond.Status`
}

// Middleware.
func limit(l *limiter, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !l.allow(r) {
			http.Error(w, http.StatusText(http.StatusTooManyRequests), http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After`
			return
		}
		next.ServeHTTP(w, r)
	})
}

// --- near misses ---

func okSetBefore(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "30")
	w.WriteHeader(http.StatusTooManyRequests)
}

func okHeaderVar(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Add("Retry-After", "30")
	http.Error(w, "slow down", http.StatusTooManyRequests)
}

func okIndexed(w http.ResponseWriter, r *http.Request) {
	w.Header()["Retry-After"] = []string{"30"}
	w.WriteHeader(http.StatusServiceUnavailable)
}

func okBothBranches(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Retry-After", "1")
	} else {
		respond.SetRetryAfter(w, 2*time.Second)
	}
	w.WriteHeader(http.StatusTooManyRequests)
}

func okHelperSets(w http.ResponseWriter, r *http.Request) {
	respond.SetRetryAfter(w, time.Second)
	respond.TooMany(w)
}

func okHeaderHelper(w http.ResponseWriter, r *http.Request) {
	respond.SetOnHeader(w.Header(), 5)
	w.WriteHeader(http.StatusTooManyRequests)
}

// A 503 whose helper sets the header.
func okUnavailable(w http.ResponseWriter, r *http.Request) {
	respond.Unavailable(w, 10)
}

func okLocalHelper(w http.ResponseWriter, r *http.Request) {
	setRetry(w)
	local(w, http.StatusTooManyRequests)
}

func setRetry(w http.ResponseWriter) { w.Header().Set("Retry-After", "1") }

// Other statuses.
func okOther(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusBadRequest)
	http.Error(w, "x", http.StatusInternalServerError)
}

// A branch that returns early does not take the header away from the
// path that reaches the write.
func okEarlyReturn(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Retry-After", "1")
	w.WriteHeader(http.StatusTooManyRequests)
}

// A switch that sets the header in some cases only.
func someCases(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		w.Header().Set("Retry-After", "1")
	case http.MethodPost:
	}
	w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After`
}

// A loop may not run: the header set in its body does not count.
func inLoop(w http.ResponseWriter, r *http.Request) {
	for _, v := range r.Header.Values("X-Wait") {
		w.Header().Set("Retry-After", v)
	}
	w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After`
}

// Every case, default included, sets it.
func okAllCases(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		w.Header().Set("Retry-After", "1")
	default:
		w.Header().Set("Retry-After", "2")
	}
	w.WriteHeader(http.StatusTooManyRequests)
}

var ready = make(chan int)

// A select with a case that does not set it.
func selectSome(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
		w.Header().Set("Retry-After", "1")
	case <-ready:
	}
	w.WriteHeader(http.StatusTooManyRequests) // want `429 Too Many Requests written without a Retry-After`
}

// A select whose every case sets it.
func okSelect(w http.ResponseWriter, r *http.Request) {
	c := ready
	select {
	case <-r.Context().Done():
		w.Header().Set("Retry-After", "1")
	case <-c:
		w.Header().Set("Retry-After", "2")
	}
	w.WriteHeader(http.StatusServiceUnavailable)
}
