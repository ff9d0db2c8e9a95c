package deadline

import (
	"fmt"
	"github.com/resilint/resilint/runtime/internal/config"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// Format is a set of header formats: which headers a [Transport] writes and
// a [Middleware] reads. Combine formats with |.
type Format uint8

const (
	// FormatRelative is the time left, in whole milliseconds, as a decimal
	// number: "X-Timeout-Ms: 2750". The receiver adds it to its own clock, so
	// clocks need not agree; what is lost is the time the request spent on the
	// wire and in queues before the receiver read it, which only makes the
	// receiver's deadline later than the sender's by that much (the margins
	// absorb it). The default for the Transport.
	FormatRelative Format = 1 << iota

	// FormatAbsolute is the deadline itself, in milliseconds since the Unix
	// epoch, as a decimal number: "X-Deadline-Ms: 1767225600000". Time on the
	// wire and in queues is counted exactly, but the receiver compares the
	// deadline with its own clock: a receiver whose clock is behind the
	// sender's by s works s too long, one whose clock is ahead stops s too early
	// (or answers 504 at once). Use it only where clocks are kept in step to
	// well below the margins; it pays off where requests wait in queues
	// before they are served.
	FormatAbsolute

	// FormatGRPC is gRPC's relative form, the grpc-timeout header: at most
	// eight digits and a unit, "2750m" (H, M, S, m, u or n: hours, minutes,
	// seconds, milliseconds, microseconds, nanoseconds). Reading it lets the
	// Middleware serve requests from gRPC-aware proxies and clients; writing
	// it lets a request reach a gRPC service through an HTTP-to-gRPC gateway
	// with its deadline.
	FormatGRPC

	formatAll = FormatRelative | FormatAbsolute | FormatGRPC
)

// String returns the names of the formats in f joined by "|", as in
// "relative|grpc"; "default" for the zero Format.
func (f Format) String() string {
	if f == 0 {
		return "default"
	}
	var names []string
	for _, n := range [...]struct {
		f    Format
		name string
	}{{FormatRelative, "relative"}, {FormatAbsolute, "absolute"}, {FormatGRPC, "grpc"}} {
		if f&n.f != 0 {
			names = append(names, n.name)
			f &^= n.f
		}
	}
	if f != 0 {
		names = append(names, fmt.Sprintf("Format(%#x)", uint8(f)))
	}
	return strings.Join(names, "|")
}

// Defaults, see [TransportConfig] and [MiddlewareConfig].
const (
	// DefaultTimeoutHeader carries the relative form. It pairs with
	// DefaultDeadlineHeader as context.WithTimeout pairs with WithDeadline.
	DefaultTimeoutHeader = "X-Timeout-Ms"
	// DefaultDeadlineHeader carries the absolute form.
	DefaultDeadlineHeader = "X-Deadline-Ms"
	// GRPCTimeoutHeader is gRPC's header; its name is fixed by the gRPC
	// protocol.
	GRPCTimeoutHeader = "Grpc-Timeout"

	// DefaultMargin is the margin each side keeps: the Transport for its
	// caller to act on a failure, the Middleware for the answer's way back.
	DefaultMargin = 100 * time.Millisecond
	// DefaultMinimum is the least time left worth sending or serving a
	// request with.
	DefaultMinimum = 200 * time.Millisecond
	// DefaultMaxBudget is the longest time a header is believed to grant.
	DefaultMaxBudget = time.Hour
)

// TransportConfig configures a [Transport]. The zero value of every field
// selects the documented default, so the zero TransportConfig is valid: send
// the time left, less 100ms, in X-Timeout-Ms over http.DefaultTransport, and
// refuse requests that would have less than 200ms.
type TransportConfig struct {
	// Base is the RoundTripper that sends the requests. Nil means
	// http.DefaultTransport.
	Base http.RoundTripper

	// Format selects the headers written. Zero means FormatRelative.
	Format Format

	// TimeoutHeader names the header of the relative form. Empty means
	// DefaultTimeoutHeader, "X-Timeout-Ms".
	TimeoutHeader string

	// DeadlineHeader names the header of the absolute form. Empty means
	// DefaultDeadlineHeader, "X-Deadline-Ms".
	DeadlineHeader string

	// Margin is kept back from every request for the caller itself: the
	// request's context, and the time sent, end Margin before the caller's
	// own deadline, which leaves the caller that long to act on a failure
	// (answer its own caller, serve a fallback) before its deadline. Zero
	// means DefaultMargin, 100ms; a negative value means no margin.
	Margin time.Duration

	// Minimum is the least time worth sending a request with: when less than
	// Minimum would be left after the margin, RoundTrip fails at once with
	// ErrNotEnoughTime and nothing is sent. Set it to the Middleware's
	// Minimum on the other side, which would answer 504 anyway. Zero means
	// DefaultMinimum, 200ms; a negative value means no minimum (a request is
	// still refused when no time at all is left).
	Minimum time.Duration
}

// MiddlewareConfig configures a [Middleware]. The zero value of every field
// selects the documented default, so the zero MiddlewareConfig is valid:
// read X-Timeout-Ms, X-Deadline-Ms and Grpc-Timeout, end the request's
// context 100ms before the deadline they carry, and answer 504 at once when
// less than 200ms would be left.
type MiddlewareConfig struct {
	// Format selects the headers read. Zero means all of them:
	// FormatRelative | FormatAbsolute | FormatGRPC. Every header read can
	// only bring the deadline closer, so reading all is safe; leave
	// FormatAbsolute out if clocks are not kept in step and some client
	// might send it.
	Format Format

	// TimeoutHeader names the header of the relative form. Empty means
	// DefaultTimeoutHeader, "X-Timeout-Ms". Behind Envoy, the proxy's own
	// relative header, X-Envoy-Expected-Rq-Timeout-Ms, has the same format.
	TimeoutHeader string

	// DeadlineHeader names the header of the absolute form. Empty means
	// DefaultDeadlineHeader, "X-Deadline-Ms".
	DeadlineHeader string

	// Margin is taken off the deadline the headers carry before it becomes
	// the request context's deadline, so that the handler is done, and its
	// answer on the way back, before the caller gives up. It is not taken
	// off a deadline the server's context already had. Zero means
	// DefaultMargin, 100ms; a negative value means no margin.
	Margin time.Duration

	// Minimum is the least time worth starting to serve a request with: a
	// request whose context would have less than Minimum left is answered
	// at once by Reject, without calling the handler. Zero means
	// DefaultMinimum, 200ms; a negative value means no minimum (a request is
	// still rejected when no time at all is left).
	Minimum time.Duration

	// MaxBudget is the longest time a header is believed to grant: a header
	// that grants more, or an absolute deadline further than MaxBudget in the
	// past, is ignored as a mistake (a deadline in seconds, an epoch sent as a
	// relative time) and logged. Zero means DefaultMaxBudget, 1h. It must not
	// be below Minimum.
	MaxBudget time.Duration

	// Reject answers the requests that arrive with too little time left.
	// Nil means a 504 Gateway Timeout with a one-line text body.
	Reject http.Handler

	// Logger receives a warning for every header value ignored (malformed,
	// negative, overflowing or beyond MaxBudget: usually a caller that
	// sends seconds, or an epoch, where milliseconds are due) and a debug
	// record for every request rejected. Nil means slog.Default(). A caller
	// can make every request log a warning; give a Logger whose handler's
	// level is above Warn to keep them out.
	Logger *slog.Logger
}

// ConfigError reports a configuration field with an invalid value: NewTransport and NewMiddleware
// return it for an invalid configuration (use errors.As). Every runtime
// package defines its ConfigError alike.
type ConfigError struct {
	// Field names the field: its name for a field of Config, qualified by
	// its struct otherwise, "TransportConfig.Margin".
	Field string
	// Value is the offending value, nil where printing it would not help.
	Value any
	// Reason says what a valid value is.
	Reason string
	// Err, if not nil, is the underlying error (a part's own validation).
	Err error
}

// Error reads like "deadline: invalid Config.Field value: reason".
func (e *ConfigError) Error() string {
	return config.Text("deadline", e.Field, e.Value, e.Reason, e.Err)
}

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }

// settings is a validated config with every default filled in.
type settings struct {
	format         Format
	timeoutHeader  string // canonical
	deadlineHeader string // canonical
	margin         time.Duration
	minimum        time.Duration
	maxBudget      time.Duration
}

func newSettings(format, defFormat Format, timeoutHeader, deadlineHeader string, margin, minimum time.Duration) (settings, error) {
	s := settings{format: format, margin: margin, minimum: minimum, maxBudget: DefaultMaxBudget}
	if s.format == 0 {
		s.format = defFormat
	}
	if s.format&^formatAll != 0 {
		return s, &ConfigError{Field: "Format", Value: format, Reason: "unknown format bits"}
	}
	var err error
	if s.timeoutHeader, err = headerName("TimeoutHeader", timeoutHeader, DefaultTimeoutHeader); err != nil {
		return s, err
	}
	if s.deadlineHeader, err = headerName("DeadlineHeader", deadlineHeader, DefaultDeadlineHeader); err != nil {
		return s, err
	}
	if s.timeoutHeader == s.deadlineHeader {
		return s, &ConfigError{Field: "DeadlineHeader", Value: s.deadlineHeader, Reason: "must differ from TimeoutHeader"}
	}
	switch {
	case margin == 0:
		s.margin = DefaultMargin
	case margin < 0:
		s.margin = 0
	}
	switch {
	case minimum == 0:
		s.minimum = DefaultMinimum
	case minimum < 0:
		s.minimum = 0
	}
	return s, nil
}

func headerName(field, name, def string) (string, error) {
	if name == "" {
		return def, nil
	}
	for i := 0; i < len(name); i++ {
		if !isTokenChar(name[i]) {
			return "", &ConfigError{Field: field, Value: fmt.Sprintf("%q", name), Reason: "not a valid header field name"}
		}
	}
	c := http.CanonicalHeaderKey(name)
	if c == GRPCTimeoutHeader {
		return "", &ConfigError{Field: field, Value: name, Reason: "Grpc-Timeout has a format of its own; use FormatGRPC"}
	}
	return c, nil
}

// isTokenChar reports whether c may appear in an HTTP token (RFC 9110,
// section 5.6.2), the syntax of a header field name.
func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func (c TransportConfig) settings() (settings, error) {
	s, err := newSettings(c.Format, FormatRelative, c.TimeoutHeader, c.DeadlineHeader, c.Margin, c.Minimum)
	return s, qualify("TransportConfig", err)
}

// qualify names the struct in a *ConfigError's Field.
func qualify(structName string, err error) error {
	if ce, ok := err.(*ConfigError); ok {
		ce.Field = structName + "." + ce.Field
	}
	return err
}

func (c MiddlewareConfig) settings() (s settings, err error) {
	defer func() { err = qualify("MiddlewareConfig", err) }()
	s, err = newSettings(c.Format, formatAll, c.TimeoutHeader, c.DeadlineHeader, c.Margin, c.Minimum)
	if err != nil {
		return s, err
	}
	switch {
	case c.MaxBudget < 0:
		return s, &ConfigError{Field: "MaxBudget", Value: c.MaxBudget, Reason: "must not be negative"}
	case c.MaxBudget > 0:
		s.maxBudget = c.MaxBudget
	}
	if s.minimum > s.maxBudget {
		return s, &ConfigError{Field: "Minimum", Value: s.minimum, Reason: fmt.Sprintf("must not exceed MaxBudget (%v)", s.maxBudget)}
	}
	return s, nil
}
