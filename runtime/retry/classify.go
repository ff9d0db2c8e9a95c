package retry

import (
	"context"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Retryable is the default classifier: it reports whether err is worth
// another attempt. idempotent says whether the operation may run twice.
//
//   - nil, errors marked Permanent, errors from an open circuit breaker
//     (IsCircuitOpen: by their CircuitOpen method, never by their text) and
//     context.Canceled: no.
//   - An error carrying an HTTP status (a method HTTPStatus() int, as
//     [*StatusError] has): 408, 425, 429, 502, 503 and 504 yes; 500 and other
//     5xx except 501 and 505 only if idempotent; anything else no.
//   - A DNS "no such host": no. Any other failure to connect (a *net.OpError
//     from "dial", a DNS error): yes, the request was never sent.
//   - A timeout (context.DeadlineExceeded, an error whose Timeout() is true)
//     or a connection lost mid-request (EOF, ECONNRESET, EPIPE,
//     ECONNABORTED): only if idempotent, since the request may have been
//     carried out and only its answer lost.
//   - Any other error: yes.
func Retryable(err error, idempotent bool) bool {
	if err == nil || IsPermanent(err) || IsCircuitOpen(err) || errors.Is(err, context.Canceled) {
		return false
	}
	if s := first(err, hasStatus); s != nil {
		return retryableStatus(s.(interface{ HTTPStatus() int }).HTTPStatus(), idempotent)
	}
	if first(err, isDNSNotFound) != nil {
		return false
	}
	if first(err, isConnectFailure) != nil {
		return true
	}
	if first(err, isTimeout) != nil || first(err, isLostConnection) != nil {
		return idempotent
	}
	return true
}

func retryableStatus(code int, idempotent bool) bool {
	switch {
	case code == http.StatusRequestTimeout, code == http.StatusTooEarly, code == http.StatusTooManyRequests,
		code == http.StatusBadGateway, code == http.StatusServiceUnavailable, code == http.StatusGatewayTimeout:
		return true
	case code == http.StatusNotImplemented, code == http.StatusHTTPVersionNotSupported:
		return false
	case code >= 500 && code <= 599:
		return idempotent
	}
	return false
}

func hasStatus(e error) bool { _, ok := e.(interface{ HTTPStatus() int }); return ok }

func isDNSNotFound(e error) bool {
	d, ok := e.(*net.DNSError)
	return ok && d.IsNotFound
}

func isConnectFailure(e error) bool {
	switch e := e.(type) {
	case *net.OpError:
		return e.Op == "dial"
	case *net.DNSError:
		return true
	}
	return false
}

func isTimeout(e error) bool {
	t, ok := e.(interface{ Timeout() bool })
	return ok && t.Timeout() || e == context.DeadlineExceeded
}

func isLostConnection(e error) bool {
	return e == io.EOF || e == io.ErrUnexpectedEOF ||
		e == syscall.ECONNRESET || e == syscall.EPIPE || e == syscall.ECONNABORTED
}

// IsCircuitOpen reports whether err comes from a circuit breaker that
// refuses calls. [Do] stops at once on such an error, whatever the
// classifier says: retrying into an open breaker only spends attempts.
//
// It recognises an error, anywhere in err's tree, with a method
// CircuitOpen() bool that returns true; resilint's runtime/breaker errors
// implement it. Errors are never judged by their text, so another
// breaker's errors are not recognised until adapted, in one of two ways:
//
//   - a classifier: Policy.Classify returning false for them, e.g.
//     func(err error) bool { return !errors.Is(err, gobreaker.ErrOpenState) &&
//     !errors.Is(err, gobreaker.ErrTooManyRequests) && retry.Retryable(err, false) };
//   - a small wrapper: return such errors from the operation wrapped in a
//     type of your own whose CircuitOpen method returns true (see the
//     example of IsCircuitOpen).
func IsCircuitOpen(err error) bool { return first(err, isCircuitOpen) != nil }

func isCircuitOpen(e error) bool {
	c, ok := e.(interface{ CircuitOpen() bool })
	return ok && c.CircuitOpen()
}

// StatusError is an HTTP response turned into an error by [HTTPError]. The
// default classifier reads its status, and Do its Retry-After.
type StatusError struct {
	// StatusCode is the response's status code, as 503.
	StatusCode int
	// Status is the response's status line, as "503 Service Unavailable".
	Status string
	// After is the wait the Retry-After header asked for, 0 if none.
	After time.Duration
}

// Error returns "retry: HTTP status " and the status line.
func (e *StatusError) Error() string {
	s := e.Status
	if s == "" {
		s = strconv.Itoa(e.StatusCode)
	}
	return "retry: HTTP status " + s
}

// HTTPStatus returns the status code, for classifiers.
func (e *StatusError) HTTPStatus() int { return e.StatusCode }

// RetryAfter returns the wait the server asked for, 0 if none.
func (e *StatusError) RetryAfter() time.Duration { return e.After }

// HTTPError returns a [*StatusError] for a response with a status of 400 or
// more, and nil otherwise (or for a nil response). Retry-After, in seconds
// or as an HTTP-date, is parsed into the error; a date is taken relative to
// the response's Date header when it has one (the server's clock), else to
// the local clock. HTTPError does not touch the body: drain and close it
// before the next attempt, as usual.
func HTTPError(resp *http.Response) error {
	if resp == nil || resp.StatusCode < 400 {
		return nil
	}
	now := time.Now()
	if d, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
		now = d
	}
	after, _ := ParseRetryAfter(resp.Header.Get("Retry-After"), now)
	return &StatusError{StatusCode: resp.StatusCode, Status: resp.Status, After: after}
}

// ParseRetryAfter parses a Retry-After header value: a number of seconds,
// or an HTTP-date taken relative to now (a date in the past gives 0). It
// reports false for an empty or malformed value. Huge values saturate
// rather than overflow.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if value[0] >= '0' && value[0] <= '9' {
		secs, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return math.MaxInt64, true
			}
			return 0, false
		}
		if secs > uint64(math.MaxInt64/time.Second) {
			return math.MaxInt64, true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}

// retryAfter returns the wait that err asks for (a method RetryAfter()
// time.Duration anywhere in its tree), or 0.
func retryAfter(err error) time.Duration {
	e := first(err, func(e error) bool { _, ok := e.(interface{ RetryAfter() time.Duration }); return ok })
	if e == nil {
		return 0
	}
	return max(e.(interface{ RetryAfter() time.Duration }).RetryAfter(), 0)
}
