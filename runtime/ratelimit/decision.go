package ratelimit

import (
	"math"
	"time"
)

// Decision is the outcome of one call to [Limiter.Allow] or
// [Limiter.AllowN]: whether the requests were admitted, and what an HTTP
// response needs to tell the client. Its methods compute the durations
// from the counts, so a caller that only needs Allowed pays for nothing
// else. The zero Decision is a refusal with a limit of 0.
type Decision struct {
	// Allowed reports whether the requests were admitted (and counted).
	Allowed bool

	limit    int64
	n        int64
	prev     int64 // count of the window before now's
	cur      int64 // count of now's window, including n if allowed
	elapsed  int64 // µs since now's window began
	window   int64 // µs
	fallback bool
}

// fits reports whether k more requests fit: the sliding-window count
// prev×(1−elapsed/window) + cur + k must not exceed limit. It is written
// multiplied out, without a division, and with explicit conversions so that
// no multiply-add is fused: the Redis script computes the very same
// doubles.
func fits(prev, cur, k, limit, elapsed, window int64) bool {
	w := float64(window)
	return float64(float64(prev)*float64(window-elapsed))+float64(float64(cur+k)*w) <= float64(float64(limit)*w)
}

// Limit returns the number of requests a key may make per window.
func (d Decision) Limit() int { return int(d.limit) }

// Fallback reports whether the decision was made by the local fallback
// limiter because the shared store failed.
func (d Decision) Fallback() bool { return d.fallback }

// Remaining returns how many more requests would be admitted now, after
// this decision.
func (d Decision) Remaining() int {
	if d.window == 0 {
		return 0
	}
	rem := float64(d.limit-d.cur) - float64(d.prev)*float64(d.window-d.elapsed)/float64(d.window)
	k := int64(math.Floor(rem))
	k = min(max(k, 0), d.limit)
	for k < d.limit && d.fits(k+1) {
		k++
	}
	for k > 0 && !d.fits(k) {
		k--
	}
	return int(k)
}

func (d Decision) fits(k int64) bool { return fits(d.prev, d.cur, k, d.limit, d.elapsed, d.window) }

// RetryAfter returns how long from now until a request of the same size
// would be admitted, if no other request is admitted meanwhile: more than
// zero for a refusal, zero for an admitted request whose successor would be
// admitted too. A request of more than Limit is never admitted; its wait is
// math.MaxInt64.
func (d Decision) RetryAfter() time.Duration { return d.wait(d.n) }

// Reset returns how long from now until the whole limit is available
// again, if no other request is admitted meanwhile.
func (d Decision) Reset() time.Duration { return d.wait(d.limit) }

// Refill returns how long Remaining stays as it is if no request is
// admitted meanwhile: the time after which more than Remaining requests
// would be admitted. It is the "effective window" of the RateLimit header
// field. It is zero when nothing is counted.
func (d Decision) Refill() time.Duration {
	r := int64(d.Remaining())
	if r >= d.limit {
		return 0
	}
	return d.wait(r + 1)
}

// Err returns nil for an admitted request and a [*LimitedError] carrying
// RetryAfter for a refused one.
func (d Decision) Err() error {
	if d.Allowed {
		return nil
	}
	return &LimitedError{After: d.RetryAfter()}
}

// wait returns how long until k requests fit.
func (d Decision) wait(k int64) time.Duration {
	if d.window == 0 || k > d.limit {
		return math.MaxInt64
	}
	if d.fits(k) {
		return 0
	}
	w := float64(d.window)
	var at int64 // µs from the start of now's window
	if d.cur+k > d.limit {
		// Only in the next window, once cur, by then the previous count,
		// weighs little enough: cur×(1−q/window) + k ≤ limit.
		q := int64(math.Ceil(w - float64(d.limit-k)*w/float64(d.cur)))
		at = d.window + min(max(q, 0), d.window)
	} else {
		// Later in this window: prev×(1−e/window) + cur + k ≤ limit.
		e := int64(math.Ceil(w - float64(d.limit-d.cur-k)*w/float64(d.prev)))
		at = min(max(e, d.elapsed), d.window)
	}
	// Rounding may leave the exact boundary a microsecond short.
	for range 2 {
		if d.fitsAt(k, at) {
			break
		}
		at++
	}
	return time.Duration(max(at-d.elapsed, 1)) * time.Microsecond
}

// fitsAt reports whether k requests fit at µs at from the start of now's
// window (at most two windows on).
func (d Decision) fitsAt(k, at int64) bool {
	if at < d.window {
		return fits(d.prev, d.cur, k, d.limit, at, d.window)
	}
	return fits(d.cur, 0, k, d.limit, min(at-d.window, d.window), d.window)
}
