package deadline

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Why a header value was ignored; logged.
const (
	reasonMalformed = "malformed"
	reasonOverflow  = "overflowing"
	reasonTooLarge  = "beyond MaxBudget"
	reasonTooOld    = "further than MaxBudget in the past"
	reasonTooMany   = "too many values"
)

// maxValues bounds the values read from one header (repeated lines and
// comma-separated elements together): an honest sender sends one, a few
// proxies might append theirs; the rest is not parsed, nor logged.
const maxValues = 4

// maxLoggedValue bounds how much of an ignored value is logged.
const maxLoggedValue = 40

// parseDecimal parses a non-empty string of ASCII digits (no sign, no
// space) into a non-negative int64. It reports reasonMalformed or
// reasonOverflow when it cannot.
func parseDecimal(s string) (int64, string) {
	if s == "" {
		return 0, reasonMalformed
	}
	var n int64
	overflow := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, reasonMalformed
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			overflow = true // keep checking the syntax
			continue
		}
		n = n*10 + d
	}
	if overflow {
		return 0, reasonOverflow
	}
	return n, ""
}

// parseMillis parses the relative form: a decimal number of milliseconds.
func parseMillis(s string) (time.Duration, string) {
	n, reason := parseDecimal(s)
	if reason != "" {
		return 0, reason
	}
	if n > math.MaxInt64/int64(time.Millisecond) {
		return 0, reasonOverflow
	}
	return time.Duration(n) * time.Millisecond, ""
}

// parseGRPCTimeout parses gRPC's grpc-timeout: one to eight digits and a
// unit.
func parseGRPCTimeout(s string) (time.Duration, string) {
	if len(s) < 2 || len(s) > 9 {
		return 0, reasonMalformed
	}
	var unit time.Duration
	switch s[len(s)-1] {
	case 'H':
		unit = time.Hour
	case 'M':
		unit = time.Minute
	case 'S':
		unit = time.Second
	case 'm':
		unit = time.Millisecond
	case 'u':
		unit = time.Microsecond
	case 'n':
		unit = time.Nanosecond
	default:
		return 0, reasonMalformed
	}
	n, reason := parseDecimal(s[:len(s)-1])
	if reason != "" {
		return 0, reason
	}
	if n > math.MaxInt64/int64(unit) {
		return 0, reasonOverflow
	}
	return time.Duration(n) * unit, ""
}

// formatGRPCTimeout formats d (positive) for grpc-timeout in the finest unit
// that fits in eight digits, rounding down: a deadline is never extended.
func formatGRPCTimeout(d time.Duration) (string, bool) {
	const maxValue = 99_999_999
	for _, u := range [...]struct {
		unit time.Duration
		c    byte
	}{{time.Millisecond, 'm'}, {time.Second, 'S'}, {time.Minute, 'M'}, {time.Hour, 'H'}} {
		if n := d / u.unit; n <= maxValue {
			return strconv.FormatInt(int64(n), 10) + string(u.c), true
		}
	}
	return "", false // more than 11,000 years
}

// values calls f with every element of every line of the header key, at
// most maxValues of them; empty elements are skipped (RFC 9110, section
// 5.6.1). It reports whether some were left unread.
func values(h http.Header, key string, f func(v string)) (more bool) {
	n := 0
	for _, line := range h[key] {
		for line != "" {
			var v string
			v, line, _ = strings.Cut(line, ",")
			v = strings.Trim(v, " \t")
			if v == "" {
				continue
			}
			if n == maxValues {
				return true
			}
			n++
			f(v)
		}
	}
	return false
}

// ignored is told about every header value that is not believed: the
// header's name, the value and why.
type ignored func(header, value, reason string)

// headerDeadline returns the earliest deadline that the headers selected by
// s.format carry, read at time now, and whether there is one. Values that
// are malformed, negative, overflowing, grant more than s.maxBudget, or lie
// further than s.maxBudget in the past are passed to bad (if not nil) and
// otherwise ignored. The result is never later than now + s.maxBudget.
func (s *settings) headerDeadline(h http.Header, now time.Time, bad ignored) (time.Time, bool) {
	var earliest time.Time
	found := false
	take := func(d time.Time) {
		if !found || d.Before(earliest) {
			earliest, found = d, true
		}
	}
	relative := func(header string, parse func(string) (time.Duration, string)) {
		more := values(h, header, func(v string) {
			d, reason := parse(v)
			if reason == "" && d > s.maxBudget {
				reason = reasonTooLarge
			}
			if reason != "" {
				report(bad, header, v, reason)
				return
			}
			take(now.Add(d))
		})
		if more {
			report(bad, header, "", reasonTooMany)
		}
	}
	if s.format&FormatRelative != 0 {
		relative(s.timeoutHeader, parseMillis)
	}
	if s.format&FormatGRPC != 0 {
		relative(GRPCTimeoutHeader, parseGRPCTimeout)
	}
	if s.format&FormatAbsolute != 0 {
		nowMs := now.UnixMilli()
		maxMs := s.maxBudget.Milliseconds()
		more := values(h, s.deadlineHeader, func(v string) {
			ms, reason := parseDecimal(v)
			switch {
			case reason != "":
			case ms > nowMs+maxMs: // no overflow: both are far below the int64 limits
				reason = reasonTooLarge
			case ms < nowMs-maxMs:
				reason = reasonTooOld
			}
			if reason != "" {
				report(bad, s.deadlineHeader, v, reason)
				return
			}
			// Milliseconds since the epoch are a point in wall-clock time; as
			// an offset from now it gets now's monotonic reading, so that the
			// context's timer does not move when the wall clock is stepped.
			take(now.Add(time.Duration(ms-nowMs) * time.Millisecond))
		})
		if more {
			report(bad, s.deadlineHeader, "", reasonTooMany)
		}
	}
	return earliest, found
}

func report(bad ignored, header, value, reason string) {
	if bad == nil {
		return
	}
	if len(value) > maxLoggedValue {
		value = value[:maxLoggedValue] + "..."
	}
	bad(header, value, reason)
}

// writeHeaders sets, in h, the headers of s.format for a request that has
// budget left and must end at deadline, and removes every other deadline
// header (see clearHeaders).
func (s *settings) writeHeaders(h http.Header, budget time.Duration, deadline time.Time) {
	s.clearHeaders(h)
	if s.format&FormatRelative != 0 {
		h[s.timeoutHeader] = []string{strconv.FormatInt(budget.Milliseconds(), 10)}
	}
	if s.format&FormatAbsolute != 0 {
		h[s.deadlineHeader] = []string{strconv.FormatInt(deadline.UnixMilli(), 10)}
	}
	if s.format&FormatGRPC != 0 {
		if v, ok := formatGRPCTimeout(budget); ok {
			h[GRPCTimeoutHeader] = []string{v}
		}
	}
}

// managed reports whether h holds a deadline header: one that s names, one
// of the default names, or Grpc-Timeout, whatever s's format.
func (s *settings) managed(h http.Header) bool {
	for _, name := range [...]string{s.timeoutHeader, s.deadlineHeader, DefaultTimeoutHeader, DefaultDeadlineHeader, GRPCTimeoutHeader} {
		if _, ok := h[name]; ok {
			return true
		}
	}
	return false
}

// clearHeaders removes from h every deadline header a Middleware reads by
// default or as s names them: a header copied from an incoming request is
// stale by the time it is sent, and the next hop would believe it.
func (s *settings) clearHeaders(h http.Header) {
	delete(h, s.timeoutHeader)
	delete(h, s.deadlineHeader)
	delete(h, DefaultTimeoutHeader)
	delete(h, DefaultDeadlineHeader)
	delete(h, GRPCTimeoutHeader)
}
