package deadline

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/retry"
)

// recorder is a base RoundTripper that counts the requests that reach it,
// keeps the last one, and answers 200 (or fails with err).
type recorder struct {
	calls atomic.Int32
	last  *http.Request
	err   error
	body  *trackedBody
}

func (rt *recorder) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.calls.Add(1)
	rt.last = r
	if r.Body != nil {
		r.Body.Close()
	}
	if rt.err != nil {
		return nil, rt.err
	}
	rt.body = &trackedBody{Reader: strings.NewReader("ok")}
	return &http.Response{StatusCode: 200, Body: rt.body, Request: r}, nil
}

// trackedBody records whether it was closed.
type trackedBody struct {
	io.Reader
	closed atomic.Bool
}

func (b *trackedBody) Close() error { b.closed.Store(true); return nil }

func newTransport(t *testing.T, c TransportConfig) *Transport {
	t.Helper()
	tr, err := NewTransport(c)
	require.NoError(t, err)
	return tr
}

func TestTransportCarriesTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		base := &recorder{}
		tr := newTransport(t, TransportConfig{Base: base})
		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
		defer cancel()
		want, _ := ctx.Deadline()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://inventory/reserve", strings.NewReader("body"))
		require.NoError(t, err)
		req.Header.Set("X-Timeout-Ms", "99999") // stale, copied from an incoming request

		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		sent := base.last
		assert.Equal(t, "2900", sent.Header.Get("X-Timeout-Ms"))
		assert.Empty(t, sent.Header.Values("X-Deadline-Ms"))
		d, ok := sent.Context().Deadline()
		require.True(t, ok)
		assert.Equal(t, want.Add(-DefaultMargin), d)

		// The caller's request is untouched.
		assert.NotSame(t, req, sent)
		assert.Equal(t, "99999", req.Header.Get("X-Timeout-Ms"))
		assert.Same(t, ctx, req.Context())

		// The request's context lives until the body is closed.
		require.NoError(t, sent.Context().Err())
		require.NoError(t, resp.Body.Close())
		assert.True(t, base.body.closed.Load())
		assert.ErrorIs(t, sent.Context().Err(), context.Canceled)
		assert.NoError(t, ctx.Err())
	})
}

func TestTransportReleasesTheContextAtEOF(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		base := &recorder{}
		tr := newTransport(t, TransportConfig{Base: base})
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/", nil)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		assert.Equal(t, "ok", string(b))
		assert.Error(t, base.last.Context().Err())
		resp.Body.Close()
	})
}

func TestTransportReleasesTheContextOnError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		boom := errors.New("connection refused")
		base := &recorder{err: boom}
		tr := newTransport(t, TransportConfig{Base: base})
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/", nil)
		resp, err := tr.RoundTrip(req)
		assert.Nil(t, resp)
		assert.Same(t, boom, err)
		assert.Error(t, base.last.Context().Err())
	})
}

func TestTransportFailsFastWithoutTouchingTheNetwork(t *testing.T) {
	tests := []struct {
		name    string
		c       TransportConfig
		timeout time.Duration
		wantMsg string
	}{
		{"below the minimum after the margin", TransportConfig{}, 299 * time.Millisecond,
			"deadline: not enough time left for the request (299ms left, 100ms margin, 200ms minimum)"},
		{"just below", TransportConfig{Margin: 10 * time.Millisecond, Minimum: 50 * time.Millisecond}, 59 * time.Millisecond,
			"deadline: not enough time left for the request (59ms left, 10ms margin, 50ms minimum)"},
		{"no time left after the margin, no minimum", TransportConfig{Minimum: -1}, 100 * time.Millisecond,
			"deadline: not enough time left for the request (100ms left, 100ms margin, 0s minimum)"},
		{"no time left, no margin, no minimum", TransportConfig{Margin: -1, Minimum: -1}, 0,
			"deadline: not enough time left for the request (0s left, 0s margin, 0s minimum)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				base := &recorder{}
				tt.c.Base = base
				tr := newTransport(t, tt.c)
				ctx, cancel := context.WithTimeout(t.Context(), tt.timeout)
				defer cancel()
				body := &trackedBody{Reader: strings.NewReader("order")}
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://inventory/reserve", body)

				resp, err := tr.RoundTrip(req)
				assert.Nil(t, resp)
				assert.ErrorIs(t, err, ErrNotEnoughTime)
				assert.ErrorIs(t, err, context.DeadlineExceeded)
				assert.EqualError(t, err, tt.wantMsg)
				assert.Zero(t, base.calls.Load(), "the request reached the network")
				assert.True(t, body.closed.Load(), "RoundTrip must close the body")
			})
		})
	}
}

func TestTransportSendsAtTheMinimum(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		base := &recorder{}
		tr := newTransport(t, TransportConfig{Base: base})
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/", nil)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, int32(1), base.calls.Load())
		assert.Equal(t, "200", base.last.Header.Get("X-Timeout-Ms"))
	})
}

func TestTransportThroughClient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		base := &recorder{}
		client := &http.Client{Transport: newTransport(t, TransportConfig{Base: base})}
		ctx, cancel := context.WithTimeout(t.Context(), 250*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/", nil)
		//resilint:ignore timeoutchain the test builds a deadline that cannot fit on purpose
		_, err := client.Do(req)
		var ue *url.Error
		require.ErrorAs(t, err, &ue)
		assert.True(t, ue.Timeout())
		assert.ErrorIs(t, err, ErrNotEnoughTime)
		assert.Zero(t, base.calls.Load())

		// http.Client.Timeout is a context deadline too.
		client.Timeout = 2 * time.Second
		req, _ = http.NewRequestWithContext(t.Context(), http.MethodGet, "http://inventory/", nil)
		resp, err := client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, "1900", base.last.Header.Get("X-Timeout-Ms"))
	})
}

func TestTransportWithoutDeadline(t *testing.T) {
	base := &recorder{}
	tr := newTransport(t, TransportConfig{Base: base, Format: FormatRelative | FormatGRPC})

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://inventory/", nil)
	req.Header.Set("Other", "kept")
	resp, err := tr.RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Same(t, req, base.last, "nothing to change: the request is passed on as it is")

	req.Header.Set("X-Timeout-Ms", "5000")
	req.Header.Set("X-Deadline-Ms", "1767225600000")
	req.Header.Set("Grpc-Timeout", "5S")
	resp, err = tr.RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.NotSame(t, req, base.last)
	assert.Equal(t, http.Header{"Other": {"kept"}}, base.last.Header)
	assert.Len(t, req.Header, 4, "the caller's request is untouched")

	// Grpc-Timeout is removed even when the Transport does not write it:
	// a Middleware reads it by default.
	tr = newTransport(t, TransportConfig{Base: base})
	req.Header.Del("X-Timeout-Ms")
	req.Header.Del("X-Deadline-Ms")
	resp, err = tr.RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.NotSame(t, req, base.last)
	assert.Equal(t, http.Header{"Other": {"kept"}}, base.last.Header)
}

func TestTransportFormats(t *testing.T) {
	tests := []struct {
		c    TransportConfig
		want http.Header
	}{
		{TransportConfig{}, http.Header{"X-Timeout-Ms": {"1400"}}},
		{TransportConfig{Margin: -1}, http.Header{"X-Timeout-Ms": {"1500"}}},
		{TransportConfig{Margin: 250 * time.Millisecond}, http.Header{"X-Timeout-Ms": {"1250"}}},
		{TransportConfig{Format: FormatAbsolute}, http.Header{"X-Deadline-Ms": {"946684801400"}}},
		{TransportConfig{Format: FormatGRPC}, http.Header{"Grpc-Timeout": {"1400m"}}},
		{TransportConfig{Format: FormatRelative | FormatAbsolute | FormatGRPC, TimeoutHeader: "x-budget", DeadlineHeader: "x-end"},
			http.Header{"X-Budget": {"1400"}, "X-End": {"946684801400"}, "Grpc-Timeout": {"1400m"}}},
	}
	for _, tt := range tests {
		t.Run(tt.c.Format.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				base := &recorder{}
				tt.c.Base = base
				tr := newTransport(t, tt.c)
				ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
				defer cancel()
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/", nil)
				resp, err := tr.RoundTrip(req)
				require.NoError(t, err)
				resp.Body.Close()
				assert.Equal(t, tt.want, base.last.Header)
				if tt.c.Margin < 0 {
					assert.Same(t, ctx, base.last.Context(), "no margin: no context of its own")
				}
			})
		})
	}
}

// upgraded is the body of a 101 response: the connection, writable.
type upgraded struct {
	trackedBody
	written strings.Builder
}

func (u *upgraded) Write(p []byte) (int, error) { return u.written.Write(p) }

func TestTransportKeepsAnUpgradedBodyWritable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		conn := &upgraded{trackedBody: trackedBody{Reader: strings.NewReader("")}}
		base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: http.StatusSwitchingProtocols, Body: conn, Request: r}, nil
		})
		tr := newTransport(t, TransportConfig{Base: base})
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/ws", nil)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		w, ok := resp.Body.(io.Writer)
		require.True(t, ok)
		_, err = w.Write([]byte("hello"))
		require.NoError(t, err)
		assert.Equal(t, "hello", conn.written.String())
		require.NoError(t, resp.Body.Close())
		assert.True(t, conn.closed.Load())
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

type idleCloser struct {
	recorder
	closed int
}

func (c *idleCloser) CloseIdleConnections() { c.closed++ }

func TestTransportCloseIdleConnections(t *testing.T) {
	base := &idleCloser{}
	client := &http.Client{Transport: newTransport(t, TransportConfig{Base: base})}
	client.CloseIdleConnections()
	assert.Equal(t, 1, base.closed)
	newTransport(t, TransportConfig{Base: roundTripFunc(nil)}).CloseIdleConnections() // no such method: nothing
}

func TestZeroTransport(t *testing.T) {
	var seen atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Header.Get("X-Timeout-Ms"))
	}))
	defer srv.Close()
	client := &http.Client{Transport: &Transport{}}
	defer client.CloseIdleConnections()

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	ms := seen.Load().(string)
	assert.True(t, ms > "58000" && len(ms) == 5, "X-Timeout-Ms: %s", ms) // a minute less 100ms, less the time it took
}

func TestNewTransportRejectsInvalidConfig(t *testing.T) {
	tests := []struct {
		c    TransportConfig
		want string
	}{
		{TransportConfig{Format: 8}, "deadline: invalid TransportConfig.Format Format(0x8): unknown format bits"},
		{TransportConfig{Format: FormatRelative | 0x40}, "deadline: invalid TransportConfig.Format relative|Format(0x40): unknown format bits"},
		{TransportConfig{TimeoutHeader: "X Timeout"}, `deadline: invalid TransportConfig.TimeoutHeader "X Timeout": not a valid header field name`},
		{TransportConfig{DeadlineHeader: "X-Deadline:"}, `deadline: invalid TransportConfig.DeadlineHeader "X-Deadline:": not a valid header field name`},
		{TransportConfig{TimeoutHeader: "grpc-timeout"}, "deadline: invalid TransportConfig.TimeoutHeader grpc-timeout: Grpc-Timeout has a format of its own; use FormatGRPC"},
		{TransportConfig{DeadlineHeader: "x-timeout-ms"}, "deadline: invalid TransportConfig.DeadlineHeader X-Timeout-Ms: must differ from TimeoutHeader"},
	}
	for _, tt := range tests {
		tr, err := NewTransport(tt.c)
		assert.Nil(t, tr)
		var ce *ConfigError
		require.ErrorAs(t, err, &ce)
		assert.EqualError(t, err, tt.want)
	}
}

func TestFormatString(t *testing.T) {
	assert.Equal(t, "default", Format(0).String())
	assert.Equal(t, "relative", FormatRelative.String())
	assert.Equal(t, "absolute", FormatAbsolute.String())
	assert.Equal(t, "grpc", FormatGRPC.String())
	assert.Equal(t, "relative|absolute|grpc", (FormatRelative | FormatAbsolute | FormatGRPC).String())
	assert.Equal(t, "Format(0x80)", Format(0x80).String())
}

// Under runtime/retry the Transport sees each attempt's deadline: the
// per-attempt timeout, or the caller's deadline when that comes first.
func TestTransportUnderRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var sent []string
		base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			sent = append(sent, r.Header.Get("X-Timeout-Ms"))
			return &http.Response{StatusCode: http.StatusServiceUnavailable, Status: "503 Service Unavailable", Body: http.NoBody, Request: r}, nil
		})
		client := &http.Client{Transport: newTransport(t, TransportConfig{Base: base})}
		ctx, cancel := context.WithTimeout(t.Context(), 2500*time.Millisecond)
		defer cancel()
		//resilint:ignore backoff the test needs exact, deterministic delays
		p := &retry.Policy{MaxAttempts: 3, PerAttemptTimeout: time.Second, BaseDelay: time.Second, Jitter: retry.JitterNone}
		//resilint:ignore timeoutchain the test builds a deadline that cannot fit on purpose
		err := retry.Do(ctx, p, func(ctx context.Context) error {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/", nil)
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			resp.Body.Close()
			return retry.HTTPError(resp)
		})
		// Attempt 1 at 0s: 1s per attempt. Attempt 2 at 1s: 1s. A third would
		// start at 3s, past the deadline: the retry stops.
		assert.Equal(t, []string{"900", "900"}, sent)
		assert.ErrorIs(t, err, retry.ErrDeadline)

		// With 1.2s left, the caller's deadline comes before the attempt's.
		do := func(timeout time.Duration, p *retry.Policy) error {
			sent = nil
			ctx, cancel := context.WithTimeout(t.Context(), timeout)
			defer cancel()
			return retry.Do(ctx, p, func(ctx context.Context) error {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/", nil)
				resp, err := client.Do(req)
				if err != nil {
					return err
				}
				resp.Body.Close()
				return retry.HTTPError(resp)
			})
		}
		p = &retry.Policy{MaxAttempts: 2, PerAttemptTimeout: 5 * time.Second, BaseDelay: 500 * time.Millisecond, Jitter: retry.JitterNone}
		err = do(1200*time.Millisecond, p)
		assert.Equal(t, []string{"1100", "600"}, sent)
		assert.ErrorIs(t, err, retry.ErrAttemptsExhausted)

		// With 750ms, the second attempt would have 250ms − 100ms: the
		// Transport refuses it, and nothing is sent.
		err = do(750*time.Millisecond, p)
		assert.Equal(t, []string{"650"}, sent)
		assert.ErrorIs(t, err, ErrNotEnoughTime)

		// A MinAttemptBudget of margin + minimum stops the retry itself first.
		p.MinAttemptBudget = DefaultMargin + DefaultMinimum
		err = do(750*time.Millisecond, p)
		assert.Equal(t, []string{"650"}, sent)
		assert.ErrorIs(t, err, retry.ErrDeadline)
		assert.NotErrorIs(t, err, ErrNotEnoughTime)
	})
}
