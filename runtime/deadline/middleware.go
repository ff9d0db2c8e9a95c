package deadline

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// rejectMessage is the body of the default answer to a request that arrives
// with too little time left.
const rejectMessage = "deadline: not enough time left to serve the request"

// Middleware derives the deadline of each request's context from the
// deadline headers its caller sent (see [MiddlewareConfig]), and answers
// 504 Gateway Timeout at once, without calling the handler, when too little
// time is left.
//
// The context's deadline becomes the earliest of the deadline the server's
// context already had and the deadline the headers carry less the margin:
// a header never extends a deadline. Header values that are malformed,
// negative, overflowing or beyond MaxBudget are ignored, and logged as
// warnings (to MiddlewareConfig.Logger, or slog.Default()).
// Cancellation is untouched: when the client goes away, net/http cancels the
// request's context, and with it the calls made with it.
//
// Put the Middleware first in the chain, so that the time a request spends
// in other middleware is counted.
//
// Create one with [NewMiddleware]; the zero Middleware behaves as one made
// from the zero [MiddlewareConfig]. A Middleware is safe for concurrent use.
type Middleware struct {
	s      settings
	set    bool // s is set; false in the zero Middleware
	reject http.Handler
	logger *slog.Logger
}

// NewMiddleware returns a Middleware, or a *ConfigError if c is invalid.
func NewMiddleware(c MiddlewareConfig) (*Middleware, error) {
	s, err := c.settings()
	if err != nil {
		return nil, err
	}
	return &Middleware{s: s, set: true, reject: c.Reject, logger: c.Logger}, nil
}

// Wrap returns a handler that serves requests with next, under the deadline
// the Middleware derives; a func(http.Handler) http.Handler, as router
// libraries expect middleware to be.
func (m *Middleware) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.serve(w, r, next)
	})
}

func (m *Middleware) settings() settings {
	if m.set {
		return m.s
	}
	s, _ := MiddlewareConfig{}.settings() // valid
	return s
}

func (m *Middleware) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	now := time.Now()
	s := m.settings()
	ctx := r.Context()
	logger := m.logger
	if logger == nil {
		logger = slog.Default()
	}
	var bad ignored
	if logger.Enabled(ctx, slog.LevelWarn) {
		bad = func(header, value, reason string) {
			logger.LogAttrs(ctx, slog.LevelWarn, "deadline: header value ignored",
				slog.String("header", header), slog.String("value", value), slog.String("reason", reason),
				slog.String("method", r.Method), slog.String("path", r.URL.Path))
		}
	}
	end, fromHeader := s.headerDeadline(r.Header, now, bad)
	if fromHeader {
		end = end.Add(-s.margin)
	}
	if own, ok := ctx.Deadline(); ok && (!fromHeader || !end.Before(own)) {
		end, fromHeader = own, false // the server's own deadline comes first
	} else if !fromHeader {
		next.ServeHTTP(w, r) // no deadline at all
		return
	}

	if left := end.Sub(now); left <= 0 || left < s.minimum {
		if logger.Enabled(ctx, slog.LevelDebug) {
			logger.LogAttrs(ctx, slog.LevelDebug, "deadline: request rejected",
				slog.Duration("left", left), slog.Duration("minimum", s.minimum),
				slog.String("method", r.Method), slog.String("path", r.URL.Path))
		}
		if m.reject != nil {
			m.reject.ServeHTTP(w, r)
		} else {
			http.Error(w, rejectMessage, http.StatusGatewayTimeout)
		}
		return
	}
	if fromHeader {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, end)
		defer cancel()
		r = r.WithContext(ctx)
	}
	next.ServeHTTP(w, r)
}
