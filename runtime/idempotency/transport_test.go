package idempotency_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/idempotency"
	"github.com/resilint/resilint/runtime/retry"
)

// roundTripFunc records what reaches the base transport.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func okResponse(r *http.Request) *http.Response {
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("ok")), Request: r}
}

// capture returns a base transport that keeps the last request it got.
func capture(last **http.Request) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		*last = r
		if r.Body != nil {
			r.Body.Close()
		}
		return okResponse(r), nil
	})
}

// body records whether it was closed.
type body struct {
	io.Reader
	closed atomic.Bool
}

func (b *body) Close() error { b.closed.Store(true); return nil }

func TestTransportAddsContextKey(t *testing.T) {
	var got *http.Request
	tr := &idempotency.Transport{Base: capture(&got)}
	ctx := idempotency.WithKey(context.Background(), "order-42")
	for _, m := range []string{http.MethodPost, http.MethodPatch} {
		req, err := http.NewRequestWithContext(ctx, m, "http://example.test/orders", strings.NewReader("{}"))
		require.NoError(t, err)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, "order-42", got.Header.Get("Idempotency-Key"), m)
		assert.Empty(t, req.Header.Get("Idempotency-Key"), "%s: the caller's request must not change", m)
		assert.NotSame(t, req, got, m)
	}
}

func TestTransportLeavesOtherMethods(t *testing.T) {
	var got *http.Request
	tr := &idempotency.Transport{Base: capture(&got)}
	ctx := idempotency.WithKey(context.Background(), "order-42")
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions, ""} {
		req, err := http.NewRequestWithContext(ctx, m, "http://example.test/orders", nil)
		require.NoError(t, err)
		_, err = tr.RoundTrip(req)
		require.NoError(t, err)
		assert.Same(t, req, got, "%q requests go through as they are", m)
		assert.Empty(t, got.Header.Get("Idempotency-Key"), m)
	}
}

func TestTransportKeepsExistingKey(t *testing.T) {
	var got *http.Request
	tr := &idempotency.Transport{Base: capture(&got)}
	ctx := idempotency.WithKey(context.Background(), "from-context")
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://example.test/orders", nil)
	req.Header.Set("Idempotency-Key", "from-header")
	_, err := tr.RoundTrip(req)
	require.NoError(t, err)
	assert.Same(t, req, got)
	assert.Equal(t, []string{"from-header"}, got.Header.Values("Idempotency-Key"))
}

func TestTransportGeneratesKeyWithoutContext(t *testing.T) {
	var got *http.Request
	tr := &idempotency.Transport{Base: capture(&got)}
	req, _ := http.NewRequest(http.MethodPost, "http://example.test/orders", nil)
	_, err := tr.RoundTrip(req)
	require.NoError(t, err)
	k := got.Header.Get("Idempotency-Key")
	assert.NoError(t, idempotency.ValidateKey(k))
	assert.Len(t, k, 26)
	assert.Empty(t, req.Header, "the caller's request must not change")
}

func TestTransportRequireContextKey(t *testing.T) {
	called := false
	tr := &idempotency.Transport{
		Base:              roundTripFunc(func(r *http.Request) (*http.Response, error) { called = true; return okResponse(r), nil }),
		RequireContextKey: true,
	}
	b := &body{Reader: strings.NewReader("{}")}
	req, _ := http.NewRequest(http.MethodPost, "http://example.test/orders", b)
	resp, err := tr.RoundTrip(req)
	assert.Nil(t, resp)
	assert.True(t, errors.Is(err, idempotency.ErrNoKey), "%v", err)
	assert.False(t, called, "nothing is sent")
	assert.True(t, b.closed.Load(), "the body is closed on the error path")

	// Through a client, the error surfaces from Do.
	c := &http.Client{Transport: tr}
	_, err = c.Post("http://example.test/orders", "application/json", strings.NewReader("{}"))
	assert.True(t, errors.Is(err, idempotency.ErrNoKey), "%v", err)
}

func TestTransportHeaderAndMethods(t *testing.T) {
	var got *http.Request
	tr := &idempotency.Transport{Base: capture(&got), Header: "X-Idempotency-Key", Methods: []string{http.MethodPut}}
	ctx := idempotency.WithKey(context.Background(), "k1")
	req, _ := http.NewRequestWithContext(ctx, http.MethodPut, "http://example.test/", nil)
	_, err := tr.RoundTrip(req)
	require.NoError(t, err)
	assert.Equal(t, "k1", got.Header.Get("X-Idempotency-Key"))
	assert.Empty(t, got.Header.Get("Idempotency-Key"))

	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, "http://example.test/", nil)
	_, err = tr.RoundTrip(req)
	require.NoError(t, err)
	assert.Same(t, req, got, "POST is not in Methods")
}

// TestTransportSameKeyEveryAttempt: a retry loop that fixes the key before
// it sends every attempt with one key, and the body is sent in full each time.
func TestTransportSameKeyEveryAttempt(t *testing.T) {
	var keys, bodies []string
	tr := &idempotency.Transport{Base: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		bodies = append(bodies, string(b))
		if len(keys) < 3 {
			return nil, errors.New("timeout")
		}
		return okResponse(r), nil
	})}
	client := &http.Client{Transport: tr}
	ctx, key := idempotency.EnsureKey(context.Background())
	p := &retry.Policy{MaxAttempts: 3, BaseDelay: time.Microsecond, Idempotent: true}
	err := retry.Do(ctx, p, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://example.test/charges", strings.NewReader(`{"amount":100}`))
		if err != nil {
			return retry.Permanent(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
	require.NoError(t, err)
	assert.Equal(t, []string{key, key, key}, keys)
	assert.Equal(t, []string{`{"amount":100}`, `{"amount":100}`, `{"amount":100}`}, bodies)
}

type idleCloser struct {
	http.RoundTripper
	closed bool
}

func (c *idleCloser) CloseIdleConnections() { c.closed = true }

func TestTransportCloseIdleConnections(t *testing.T) {
	base := &idleCloser{}
	c := &http.Client{Transport: &idempotency.Transport{Base: base}}
	c.CloseIdleConnections()
	assert.True(t, base.closed)
	(&idempotency.Transport{Base: roundTripFunc(nil)}).CloseIdleConnections() // no such method: no panic
}
