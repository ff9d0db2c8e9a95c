package deadline

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"
)

// ErrNotEnoughTime is returned (wrapped, with the numbers) by
// [Transport.RoundTrip] for a request it refused to send because too little
// time was left before the deadline of the request's context. An
// http.Client returns it inside a *url.Error whose Timeout method reports
// true. errors.Is(err, context.DeadlineExceeded) also holds: the request
// could not be done in time, as if the deadline had passed.
var ErrNotEnoughTime = errors.New("deadline: not enough time left for the request")

// notEnoughTime is the error RoundTrip returns for a request it refused.
type notEnoughTime struct {
	left, margin, minimum time.Duration
}

func (e *notEnoughTime) Error() string {
	return ErrNotEnoughTime.Error() + " (" + e.left.Round(time.Millisecond).String() + " left, " + e.margin.String() +
		" margin, " + e.minimum.String() + " minimum)"
}

func (e *notEnoughTime) Is(target error) bool {
	return target == ErrNotEnoughTime || target == context.DeadlineExceeded
}

// Timeout reports true, for net.Error and url.Error.
func (e *notEnoughTime) Timeout() bool { return true }

// Transport is an http.RoundTripper that carries the deadline of each
// request's context to the server, in headers, and ends the request's
// context a margin before that deadline. A request with too little time
// left fails at once with [ErrNotEnoughTime], without reaching the network.
// A request whose context has no deadline is sent as it is, except for the
// headers the Transport writes (see [Transport.RoundTrip]).
//
// Create one with [NewTransport]; the zero Transport behaves as one made from
// the zero [TransportConfig]. A Transport is safe for concurrent use and is
// meant to be shared, like the Base it wraps.
type Transport struct {
	base http.RoundTripper // nil: http.DefaultTransport
	s    settings
	set  bool // s is set; false in the zero Transport
}

var (
	_ http.RoundTripper                   = (*Transport)(nil)
	_ interface{ CloseIdleConnections() } = (*Transport)(nil)
)

// NewTransport returns a Transport, or a *ConfigError if c is invalid.
func NewTransport(c TransportConfig) (*Transport, error) {
	s, err := c.settings()
	if err != nil {
		return nil, err
	}
	return &Transport{base: c.Base, s: s, set: true}, nil
}

func (t *Transport) settings() settings {
	if t.set {
		return t.s
	}
	s, _ := TransportConfig{}.settings() // valid
	return s
}

func (t *Transport) transport() http.RoundTripper {
	if t.base == nil {
		return http.DefaultTransport
	}
	return t.base
}

// RoundTrip sends req through the base RoundTripper with the deadline of
// req's context, less the margin, in the configured headers, and with a
// context that ends at that time. The response body must be closed, as
// always; closing it (or reading it to the end) releases the context.
//
// When less than the minimum (or no time at all) would be left after the
// margin, RoundTrip closes req's body and returns an error that wraps
// [ErrNotEnoughTime], without calling the base RoundTripper.
//
// Every deadline header a Middleware reads is removed or rewritten: its own
// TimeoutHeader and DeadlineHeader, the default X-Timeout-Ms and
// X-Deadline-Ms, and Grpc-Timeout, whatever the Format. A header copied
// from an incoming request is stale by the time it is sent, and the next
// hop would believe it. The headers of the Format are then written; when
// req's context has no deadline, none is.
//
// RoundTrip does not modify req: it sends a clone.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	s := t.settings()
	base := t.transport()
	ctx := req.Context()
	deadline, ok := ctx.Deadline()
	if !ok {
		if !s.managed(req.Header) {
			return base.RoundTrip(req)
		}
		r := req.Clone(ctx)
		s.clearHeaders(r.Header)
		return base.RoundTrip(r)
	}

	now := time.Now()
	end := deadline.Add(-s.margin)
	budget := end.Sub(now)
	if budget <= 0 || budget < s.minimum {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, &notEnoughTime{left: max(deadline.Sub(now), 0), margin: s.margin, minimum: s.minimum}
	}

	var cancel context.CancelFunc
	if s.margin > 0 {
		ctx, cancel = context.WithDeadline(ctx, end)
	}
	r := req.Clone(ctx)
	s.writeHeaders(r.Header, budget, end)
	resp, err := base.RoundTrip(r)
	if cancel == nil {
		return resp, err
	}
	if err != nil || resp == nil || resp.Body == nil {
		cancel()
		return resp, err
	}
	if rw, ok := resp.Body.(io.ReadWriteCloser); ok {
		// The body of a 101 Switching Protocols response is the connection;
		// keep it writable.
		resp.Body = &cancelReadWriteBody{cancelBody{rc: rw, cancel: cancel}, rw}
	} else {
		resp.Body = &cancelBody{rc: resp.Body, cancel: cancel}
	}
	return resp, nil
}

// CloseIdleConnections closes the idle connections of the base RoundTripper,
// if it has such a method; http.Client.CloseIdleConnections calls it.
func (t *Transport) CloseIdleConnections() {
	if c, ok := t.transport().(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// cancelBody releases the request's context once the body is read to the
// end, fails, or is closed.
type cancelBody struct {
	rc     io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err != nil {
		b.cancel()
	}
	return n, err
}

func (b *cancelBody) Close() error {
	err := b.rc.Close()
	b.cancel()
	return err
}

type cancelReadWriteBody struct {
	cancelBody
	w io.Writer
}

func (b *cancelReadWriteBody) Write(p []byte) (int, error) { return b.w.Write(p) }
