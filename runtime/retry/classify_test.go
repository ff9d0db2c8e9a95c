package retry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
)

func TestRetryable(t *testing.T) {
	status := func(code int) error { return &StatusError{StatusCode: code} }
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	dialTimeout := &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
	read := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	noHost := &net.DNSError{Err: "no such host", Name: "nope.invalid", IsNotFound: true}
	dnsTemp := &net.DNSError{Err: "server misbehaving", Name: "x", IsTemporary: true}
	urlErr := func(err error) error { return &url.Error{Op: "Post", URL: "http://x", Err: err} }

	tests := []struct {
		name                 string
		err                  error
		plain, idempotentToo bool // verdict when not idempotent, when idempotent
	}{
		{"nil", nil, false, false},
		{"unknown error", errors.New("boom"), true, true},
		{"permanent", Permanent(errors.New("x")), false, false},
		{"canceled", context.Canceled, false, false},
		{"wrapped canceled", urlErr(context.Canceled), false, false},
		{"400", status(400), false, false},
		{"401", status(401), false, false},
		{"404", status(404), false, false},
		{"409", status(409), false, false},
		{"408", status(408), true, true},
		{"425", status(425), true, true},
		{"429", status(429), true, true},
		{"500", status(500), false, true},
		{"501", status(501), false, false},
		{"502", status(502), true, true},
		{"503", status(503), true, true},
		{"504", status(504), true, true},
		{"505", status(505), false, false},
		{"507", status(507), false, true},
		{"200 as error", status(200), false, false},
		{"wrapped 503", fmt.Errorf("get: %w", status(503)), true, true},
		{"connection refused", urlErr(dial), true, true},
		{"dial timeout", urlErr(dialTimeout), true, true},
		{"no such host", urlErr(&net.OpError{Op: "dial", Err: noHost}), false, false},
		{"bare DNS failure", dnsTemp, true, true},
		{"temporary DNS failure", urlErr(&net.OpError{Op: "dial", Err: dnsTemp}), true, true},
		{"reset mid-request", urlErr(read), false, true},
		{"EOF", urlErr(io.EOF), false, true},
		{"unexpected EOF", io.ErrUnexpectedEOF, false, true},
		{"broken pipe", fmt.Errorf("write: %w", syscall.EPIPE), false, true},
		{"deadline exceeded", context.DeadlineExceeded, false, true},
		{"client timeout", urlErr(&timeoutErr{}), false, true},
		{"os deadline", os.ErrDeadlineExceeded, false, true},
		{"breaker open", openErr{}, false, false},
		{"breaker closed-ish", closedErr{}, true, true},
		{"breaker text, no method", errors.New("circuit breaker is open"), true, true},
		{"limiter text, no method", fmt.Errorf("call: %w", errors.New("too many requests")), true, true},
		{"same text, other type", textErr("too many requests"), true, true},
		{"joined with permanent", errors.Join(errors.New("a"), Permanent(errors.New("b"))), false, false},
		{"joined 503", errors.Join(errors.New("a"), status(503)), true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.plain, Retryable(tt.err, false), "not idempotent")
			assert.Equal(t, tt.idempotentToo, Retryable(tt.err, true), "idempotent")
		})
	}
}

type timeoutErr struct{}

func (*timeoutErr) Error() string { return "Client.Timeout exceeded" }
func (*timeoutErr) Timeout() bool { return true }

type closedErr struct{}

func (closedErr) Error() string     { return "breaker: half-open" }
func (closedErr) CircuitOpen() bool { return false }

type textErr string

func (e textErr) Error() string { return string(e) }

func TestIsCircuitOpen(t *testing.T) {
	assert.True(t, IsCircuitOpen(openErr{}))
	assert.True(t, IsCircuitOpen(fmt.Errorf("a: %w", fmt.Errorf("b: %w", openErr{}))))
	assert.False(t, IsCircuitOpen(closedErr{}))
	assert.False(t, IsCircuitOpen(nil))
	assert.False(t, IsCircuitOpen(errors.New("circuit breaker is open!")))
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"120", 2 * time.Minute, true},
		{" 7 ", 7 * time.Second, true},
		{"Sun, 01 Jun 2025 12:00:30 GMT", 30 * time.Second, true}, // IMF-fixdate
		{"Sunday, 01-Jun-25 12:01:00 GMT", time.Minute, true},     // RFC 850
		{"Sun Jun  1 12:00:05 2025", 5 * time.Second, true},       // asctime
		{"Sun, 01 Jun 2025 11:00:00 GMT", 0, true},                // in the past
		{"99999999999999999999999", math.MaxInt64, true},          // saturates
		{"9223372037", math.MaxInt64, true},                       // seconds that overflow a Duration
		{"", 0, false},
		{"soon", 0, false},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"12abc", 0, false},
		{"2025-06-01T12:00:30Z", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.in, now)
		assert.Equal(t, tt.ok, ok, "%q", tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
	}
}

func TestHTTPError(t *testing.T) {
	assert.NoError(t, HTTPError(nil))
	assert.NoError(t, HTTPError(&http.Response{StatusCode: 200}))
	assert.NoError(t, HTTPError(&http.Response{StatusCode: 304}))

	resp := &http.Response{StatusCode: 503, Status: "503 Service Unavailable", Header: http.Header{}}
	resp.Header.Set("Retry-After", "3")
	err := HTTPError(resp)
	assert.EqualError(t, err, "retry: HTTP status 503 Service Unavailable")
	var se *StatusError
	assert.ErrorAs(t, err, &se)
	assert.Equal(t, 503, se.HTTPStatus())
	assert.Equal(t, 3*time.Second, se.RetryAfter())
	assert.Equal(t, 3*time.Second, retryAfter(fmt.Errorf("x: %w", err)))

	// A date is read against the server's Date header.
	resp = &http.Response{StatusCode: 429, Header: http.Header{}}
	resp.Header.Set("Date", "Sun, 01 Jun 2025 12:00:00 GMT")
	resp.Header.Set("Retry-After", "Sun, 01 Jun 2025 12:00:10 GMT")
	err = HTTPError(resp)
	assert.EqualError(t, err, "retry: HTTP status 429")
	assert.Equal(t, 10*time.Second, retryAfter(err))

	resp.Header.Set("Retry-After", "garbage")
	assert.Zero(t, retryAfter(HTTPError(resp)))
	assert.Zero(t, retryAfter(errors.New("x")))
	assert.Zero(t, retryAfter(&StatusError{After: -time.Second}))
}
