package deadline

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"
)

// served records what the handler behind a Middleware was given.
type served struct {
	calls    int
	req      *http.Request
	deadline time.Time // zero: none
	left     time.Duration
}

func (s *served) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.calls++
		s.req = r
		s.deadline, _ = r.Context().Deadline()
		if !s.deadline.IsZero() {
			s.left = time.Until(s.deadline)
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

// logBuffer returns a logger that writes text records without times.
func logBuffer() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	h := slog.NewTextHandler(&buf, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	})
	return slog.New(h), &buf
}

func newMiddleware(t *testing.T, c MiddlewareConfig) *Middleware {
	t.Helper()
	m, err := NewMiddleware(c)
	require.NoError(t, err)
	return m
}

func serve(m *Middleware, h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	m.Wrap(h).ServeHTTP(w, r)
	return w
}

func TestMiddlewareDerivesTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tests := []struct {
			name   string
			header http.Header
			c      MiddlewareConfig
			left   time.Duration
		}{
			{"relative", http.Header{"X-Timeout-Ms": {"2750"}}, MiddlewareConfig{}, 2650 * time.Millisecond},
			{"absolute", http.Header{"X-Deadline-Ms": {strconv.FormatInt(time.Now().UnixMilli()+1500, 10)}}, MiddlewareConfig{}, 1400 * time.Millisecond},
			{"grpc", http.Header{"Grpc-Timeout": {"1S"}}, MiddlewareConfig{}, 900 * time.Millisecond},
			{"earliest", http.Header{"X-Timeout-Ms": {"900"}, "Grpc-Timeout": {"1S"}}, MiddlewareConfig{}, 800 * time.Millisecond},
			{"no margin", http.Header{"X-Timeout-Ms": {"2750"}}, MiddlewareConfig{Margin: -1}, 2750 * time.Millisecond},
			{"margin", http.Header{"X-Timeout-Ms": {"2750"}}, MiddlewareConfig{Margin: 750 * time.Millisecond}, 2 * time.Second},
			{"Envoy's header", http.Header{"X-Envoy-Expected-Rq-Timeout-Ms": {"15000"}},
				MiddlewareConfig{TimeoutHeader: "X-Envoy-Expected-Rq-Timeout-Ms"}, 14900 * time.Millisecond},
		}
		for _, tt := range tests {
			var s served
			r := httptest.NewRequest(http.MethodGet, "/price", nil)
			r.Header = tt.header
			w := serve(newMiddleware(t, tt.c), s.handler(), r)
			assert.Equal(t, http.StatusNoContent, w.Code, tt.name)
			require.Equal(t, 1, s.calls, tt.name)
			assert.Equal(t, tt.left, s.left, tt.name)
			assert.ErrorIs(t, s.req.Context().Err(), context.Canceled, "%s: the context is released after the handler", tt.name)
		}
	})
}

func TestMiddlewareNeverExtendsADeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMiddleware(t, MiddlewareConfig{})
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		own, _ := ctx.Deadline()

		for _, budget := range []string{"1100", "5000", "86400000", "bogus"} {
			var s served
			r := httptest.NewRequestWithContext(ctx, http.MethodGet, "/price", nil)
			r.Header.Set("X-Timeout-Ms", budget)
			serve(m, s.handler(), r)
			require.Equal(t, 1, s.calls)
			assert.Same(t, r, s.req, "budget %s: the server's own deadline stays", budget)
			assert.Equal(t, own, s.deadline)
		}

		// A shorter one is taken.
		var s served
		r := httptest.NewRequestWithContext(ctx, http.MethodGet, "/price", nil)
		r.Header.Set("X-Timeout-Ms", "1099")
		serve(m, s.handler(), r)
		assert.Equal(t, 999*time.Millisecond, s.left)
	})
}

func TestMiddlewareWithoutDeadline(t *testing.T) {
	var s served
	r := httptest.NewRequest(http.MethodGet, "/price", nil)
	w := serve(newMiddleware(t, MiddlewareConfig{}), s.handler(), r)
	assert.Equal(t, http.StatusNoContent, w.Code)
	assert.Same(t, r, s.req)
	assert.True(t, s.deadline.IsZero())
}

func TestMiddlewareRejectsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		past := strconv.FormatInt(time.Now().UnixMilli()-5, 10)
		tests := []struct {
			name   string
			header http.Header
			c      MiddlewareConfig
			own    time.Duration // the server's own timeout, 0: none
		}{
			{"below the minimum", http.Header{"X-Timeout-Ms": {"299"}}, MiddlewareConfig{}, 0},
			{"zero", http.Header{"X-Timeout-Ms": {"0"}}, MiddlewareConfig{Minimum: -1, Margin: -1}, 0},
			{"after the margin", http.Header{"X-Timeout-Ms": {"100"}}, MiddlewareConfig{Minimum: -1}, 0},
			{"expired absolute", http.Header{"X-Deadline-Ms": {past}}, MiddlewareConfig{Minimum: -1, Margin: -1}, 0},
			{"grpc", http.Header{"Grpc-Timeout": {"50m"}}, MiddlewareConfig{Minimum: 10 * time.Millisecond, Margin: 50 * time.Millisecond}, 0},
			{"the server's own deadline", http.Header{}, MiddlewareConfig{}, 150 * time.Millisecond},
			{"both", http.Header{"X-Timeout-Ms": {"5000"}}, MiddlewareConfig{}, 150 * time.Millisecond},
		}
		for _, tt := range tests {
			ctx := t.Context()
			if tt.own > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.own)
				defer cancel()
			}
			var s served
			r := httptest.NewRequestWithContext(ctx, http.MethodGet, "/price", nil)
			r.Header = tt.header
			w := serve(newMiddleware(t, tt.c), s.handler(), r)
			assert.Equal(t, http.StatusGatewayTimeout, w.Code, tt.name)
			assert.Equal(t, rejectMessage+"\n", w.Body.String(), tt.name)
			assert.Zero(t, s.calls, "%s: the handler ran", tt.name)
		}

		// Just enough.
		var s served
		r := httptest.NewRequest(http.MethodGet, "/price", nil)
		r.Header.Set("X-Timeout-Ms", "300")
		w := serve(newMiddleware(t, MiddlewareConfig{}), s.handler(), r)
		assert.Equal(t, http.StatusNoContent, w.Code)
		assert.Equal(t, DefaultMinimum, s.left)
	})
}

func TestMiddlewareCustomRejectAndLogs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		logger, buf := logBuffer()
		m := newMiddleware(t, MiddlewareConfig{
			Logger: logger,
			Reject: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusGatewayTimeout)
				w.Write([]byte(`{"error":"deadline"}`))
			}),
		})
		var s served
		r := httptest.NewRequest(http.MethodGet, "/price?sku=1", nil)
		r.Header.Set("X-Timeout-Ms", "250")
		w := serve(m, s.handler(), r)
		assert.Equal(t, http.StatusGatewayTimeout, w.Code)
		assert.JSONEq(t, `{"error":"deadline"}`, w.Body.String())
		assert.Zero(t, s.calls)
		assert.Equal(t, "level=DEBUG msg=\"deadline: request rejected\" left=150ms minimum=200ms method=GET path=/price\n", buf.String())
	})
}

func TestMiddlewareIgnoresBadValues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		logger, buf := logBuffer()
		m := newMiddleware(t, MiddlewareConfig{Logger: logger})
		for _, v := range []string{"-1", "soon", "1e3", "18446744073709551616", "3600001", "1767225600000", "\x1b[31mred"} {
			var s served
			r := httptest.NewRequest(http.MethodPost, "/price", nil)
			r.Header.Set("X-Timeout-Ms", v)
			w := serve(m, s.handler(), r)
			assert.Equal(t, http.StatusNoContent, w.Code, v)
			assert.Same(t, r, s.req, v)
			assert.True(t, s.deadline.IsZero(), v)
		}
		assert.Equal(t, ""+
			`level=WARN msg="deadline: header value ignored" header=X-Timeout-Ms value=-1 reason=malformed method=POST path=/price`+"\n"+
			`level=WARN msg="deadline: header value ignored" header=X-Timeout-Ms value=soon reason=malformed method=POST path=/price`+"\n"+
			`level=WARN msg="deadline: header value ignored" header=X-Timeout-Ms value=1e3 reason=malformed method=POST path=/price`+"\n"+
			`level=WARN msg="deadline: header value ignored" header=X-Timeout-Ms value=18446744073709551616 reason=overflowing method=POST path=/price`+"\n"+
			`level=WARN msg="deadline: header value ignored" header=X-Timeout-Ms value=3600001 reason="beyond MaxBudget" method=POST path=/price`+"\n"+
			`level=WARN msg="deadline: header value ignored" header=X-Timeout-Ms value=1767225600000 reason="beyond MaxBudget" method=POST path=/price`+"\n"+
			`level=WARN msg="deadline: header value ignored" header=X-Timeout-Ms value="\x1b[31mred" reason=malformed method=POST path=/price`+"\n",
			buf.String())

		// Without a logger, bad values are ignored all the same.
		var s served
		r := httptest.NewRequest(http.MethodGet, "/price", nil)
		r.Header.Set("X-Timeout-Ms", "-1")
		serve(newMiddleware(t, MiddlewareConfig{}), s.handler(), r)
		assert.True(t, s.deadline.IsZero())
	})
}

func TestMiddlewareFormats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := http.Header{
			"X-Timeout-Ms":  {"3000"},
			"X-Deadline-Ms": {strconv.FormatInt(time.Now().UnixMilli()+2000, 10)},
			"Grpc-Timeout":  {"1S"},
		}
		for f, left := range map[Format]time.Duration{
			0:                               900 * time.Millisecond,
			FormatRelative:                  2900 * time.Millisecond,
			FormatRelative | FormatAbsolute: 1900 * time.Millisecond,
			FormatGRPC | FormatRelative:     900 * time.Millisecond,
		} {
			var s served
			r := httptest.NewRequest(http.MethodGet, "/price", nil)
			r.Header = h
			serve(newMiddleware(t, MiddlewareConfig{Format: f}), s.handler(), r)
			assert.Equal(t, left, s.left, f.String())
		}
	})
}

func TestZeroMiddleware(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s served
		r := httptest.NewRequest(http.MethodGet, "/price", nil)
		r.Header.Set("X-Timeout-Ms", "1000")
		serve(&Middleware{}, s.handler(), r)
		assert.Equal(t, 900*time.Millisecond, s.left)
	})
}

func TestNewMiddlewareRejectsInvalidConfig(t *testing.T) {
	tests := []struct {
		c    MiddlewareConfig
		want string
	}{
		{MiddlewareConfig{MaxBudget: -time.Second}, "deadline: invalid MiddlewareConfig.MaxBudget -1s: must not be negative"},
		{MiddlewareConfig{MaxBudget: 100 * time.Millisecond}, "deadline: invalid MiddlewareConfig.Minimum 200ms: must not exceed MaxBudget (100ms)"},
		{MiddlewareConfig{Format: 0xf0}, "deadline: invalid MiddlewareConfig.Format Format(0xf0): unknown format bits"},
		{MiddlewareConfig{TimeoutHeader: ""}, ""},
		{MiddlewareConfig{TimeoutHeader: "X-Deadline-Ms"}, "deadline: invalid MiddlewareConfig.DeadlineHeader X-Deadline-Ms: must differ from TimeoutHeader"},
		{MiddlewareConfig{TimeoutHeader: "Tim\u00e9"}, `deadline: invalid MiddlewareConfig.TimeoutHeader "Timé": not a valid header field name`},
	}
	for _, tt := range tests {
		m, err := NewMiddleware(tt.c)
		if tt.want == "" {
			assert.NoError(t, err)
			continue
		}
		assert.Nil(t, m)
		var ce *ConfigError
		require.ErrorAs(t, err, &ce)
		assert.EqualError(t, err, tt.want)
	}
}
