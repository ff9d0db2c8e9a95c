package idempotency_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/idempotency"
)

// counted is a handler that counts its executions and delegates to fn.
type counted struct {
	n  atomic.Int32
	fn func(w http.ResponseWriter, r *http.Request, n int)
}

func (c *counted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.fn(w, r, int(c.n.Add(1)))
}

func (c *counted) count() int { return int(c.n.Load()) }

// created answers 201 with the execution number in a header and the body.
func created() *counted {
	return &counted{fn: func(w http.ResponseWriter, r *http.Request, n int) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Execution", fmt.Sprint(n))
		w.Header()["Set-Cookie"] = []string{"a=1", "b=2"}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"execution":%d,"got":%q}`, n, b)
	}}
}

func wrap(t *testing.T, cfg idempotency.Config, h http.Handler) http.Handler {
	t.Helper()
	if cfg.Scope == nil && !cfg.Unscoped {
		cfg.Scope = oneTenant
	}
	mw, err := idempotency.New(cfg)
	require.NoError(t, err)
	return mw.Wrap(h)
}

// oneTenant is the Scope of tests where every request comes from one tenant.
func oneTenant(*http.Request) string { return "tenant" }

// send serves one request; key "" means no key header.
func send(h http.Handler, method, target, key, body string) *httptest.ResponseRecorder {
	return sendCtx(context.Background(), h, method, target, key, body)
}

func sendCtx(ctx context.Context, h http.Handler, method, target, key, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequestWithContext(ctx, method, target, strings.NewReader(body))
	if key != "" {
		r.Header.Set("Idempotency-Key", key)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// logBuffer returns a logger writing text into a buffer safe for
// concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func newLog() (*logBuffer, *slog.Logger) {
	l := &logBuffer{}
	return l, slog.New(slog.NewTextHandler(l, nil))
}

func TestMiddlewareReplaysFirstResponse(t *testing.T) {
	h := created()
	mw := wrap(t, idempotency.Config{}, h)

	first := send(mw, http.MethodPost, "/orders?x=1", "k1", `{"amount":100}`)
	require.Equal(t, http.StatusCreated, first.Code)
	assert.Empty(t, first.Header().Get(idempotency.ReplayedHeader))
	assert.Equal(t, `{"execution":1,"got":"{\"amount\":100}"}`, first.Body.String())

	for range 3 {
		again := send(mw, http.MethodPost, "/orders?x=1", "k1", `{"amount":100}`)
		assert.Equal(t, http.StatusCreated, again.Code)
		assert.Equal(t, first.Body.String(), again.Body.String())
		assert.Equal(t, "true", again.Header().Get(idempotency.ReplayedHeader))
		hdr := again.Header().Clone()
		hdr.Del(idempotency.ReplayedHeader)
		assert.Equal(t, first.Header(), hdr)
	}
	assert.Equal(t, 1, h.count())

	// Another key is another request.
	other := send(mw, http.MethodPost, "/orders?x=1", "k2", `{"amount":100}`)
	assert.Equal(t, "2", other.Header().Get("X-Execution"))
}

func TestMiddlewareKeyReusedForAnotherRequest(t *testing.T) {
	h := created()
	mw := wrap(t, idempotency.Config{}, h)
	require.Equal(t, http.StatusCreated, send(mw, http.MethodPost, "/orders?x=1", "k1", `{"amount":100}`).Code)

	for _, c := range []struct{ method, target, body string }{
		{http.MethodPost, "/orders?x=1", `{"amount":1000}`},
		{http.MethodPost, "/orders?x=2", `{"amount":100}`},
		{http.MethodPost, "/refunds?x=1", `{"amount":100}`},
		{http.MethodPatch, "/orders?x=1", `{"amount":100}`},
		{http.MethodPost, "/orders?x=1", ``},
	} {
		w := send(mw, c.method, c.target, "k1", c.body)
		assert.Equal(t, http.StatusUnprocessableEntity, w.Code, "%+v", c)
		assert.Contains(t, w.Body.String(), "idempotency: idempotency key reused for a different request: the key was first used with another method, path, query or body; use a new key for a new request")
	}
	assert.Equal(t, 1, h.count())
}

func TestMiddlewareScope(t *testing.T) {
	h := created()
	mw := wrap(t, idempotency.Config{Scope: func(r *http.Request) string { return r.Header.Get("X-Tenant") }}, h)
	req := func(tenant string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "/orders", strings.NewReader("{}"))
		r.Header.Set("Idempotency-Key", "same-key")
		r.Header.Set("X-Tenant", tenant)
		w := httptest.NewRecorder()
		mw.ServeHTTP(w, r)
		return w
	}
	a, b := req("acme"), req("globex")
	assert.Equal(t, "1", a.Header().Get("X-Execution"))
	assert.Equal(t, "2", b.Header().Get("X-Execution"), "a key is unique within its scope only")
	assert.Equal(t, "1", req("acme").Header().Get("X-Execution"))
	assert.Equal(t, "2", req("globex").Header().Get("X-Execution"))
	assert.Equal(t, 2, h.count())
}

func TestMiddlewareMissingKey(t *testing.T) {
	h := created()
	optional := wrap(t, idempotency.Config{}, h)
	assert.Equal(t, http.StatusCreated, send(optional, http.MethodPost, "/orders", "", "{}").Code)
	assert.Equal(t, http.StatusCreated, send(optional, http.MethodPost, "/orders", "", "{}").Code)
	assert.Equal(t, 2, h.count(), "without a key, requests are not protected")

	required := wrap(t, idempotency.Config{Required: true}, h)
	w := send(required, http.MethodPost, "/orders", "", "{}")
	assert.Equal(t, http.StatusBadRequest, w.Code)
	assert.Equal(t, "idempotency: missing idempotency key: this request needs an Idempotency-Key header; make one key per logical request and send it with every attempt\n", w.Body.String())
	assert.Equal(t, "text/plain; charset=utf-8", w.Header().Get("Content-Type"))
	assert.Equal(t, 2, h.count())

	perRoute := wrap(t, idempotency.Config{
		Required:     true, // overridden
		RequiredFunc: func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/payments") },
	}, h)
	assert.Equal(t, http.StatusBadRequest, send(perRoute, http.MethodPost, "/payments", "", "{}").Code)
	assert.Equal(t, http.StatusCreated, send(perRoute, http.MethodPost, "/comments", "", "{}").Code)
	assert.Equal(t, 3, h.count())
}

func TestMiddlewareInvalidKey(t *testing.T) {
	h := created()
	mw := wrap(t, idempotency.Config{Header: "X-Idempotency-Key"}, h)
	for name, c := range map[string]struct {
		values []string
		want   string
	}{
		"empty":       {[]string{""}, "the key is empty"},
		"overlong":    {[]string{strings.Repeat("k", 256)}, "the key is 256 bytes long; at most 255 are allowed"},
		"space":       {[]string{"a b"}, "byte 1 of the key is 0x20"},
		"control":     {[]string{"a\x01b"}, "byte 1 of the key is 0x01"},
		"non-ASCII":   {[]string{"clé"}, "byte 2 of the key is 0xc3"},
		"two headers": {[]string{"a", "b"}, "the X-Idempotency-Key header appears 2 times; send it once"},
	} {
		r := httptest.NewRequest(http.MethodPost, "/orders", strings.NewReader("{}"))
		r.Header["X-Idempotency-Key"] = c.values
		w := httptest.NewRecorder()
		mw.ServeHTTP(w, r)
		assert.Equal(t, http.StatusBadRequest, w.Code, name)
		assert.True(t, strings.HasPrefix(w.Body.String(), "idempotency: invalid idempotency key: "), "%s: %q", name, w.Body.String())
		assert.Contains(t, w.Body.String(), c.want, name)
	}
	assert.Equal(t, 0, h.count())

	r := httptest.NewRequest(http.MethodPost, "/orders", strings.NewReader("{}"))
	r.Header.Set("X-Idempotency-Key", strings.Repeat("k", 255))
	w := httptest.NewRecorder()
	mw.ServeHTTP(w, r)
	assert.Equal(t, http.StatusCreated, w.Code, "255 bytes is fine")
}

func TestMiddlewareOtherMethodsPass(t *testing.T) {
	h := created()
	mw := wrap(t, idempotency.Config{Required: true}, h)
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
		assert.Equal(t, http.StatusCreated, send(mw, m, "/orders", "k1", "").Code)
		assert.Equal(t, http.StatusCreated, send(mw, m, "/orders", "", "").Code)
	}
	assert.Equal(t, 6, h.count())

	onlyPut := wrap(t, idempotency.Config{Methods: []string{http.MethodPut}}, h)
	send(onlyPut, http.MethodPut, "/orders", "k1", "")
	assert.Equal(t, "true", send(onlyPut, http.MethodPut, "/orders", "k1", "").Header().Get(idempotency.ReplayedHeader))
	assert.Empty(t, send(onlyPut, http.MethodPost, "/orders", "k1", "").Header().Get(idempotency.ReplayedHeader))
}

func TestMiddlewareStatuses(t *testing.T) {
	for _, c := range []struct {
		status int
		stored bool
	}{
		{200, true}, {201, true}, {204, true}, {302, true}, {400, true}, {404, true}, {409, true}, {422, true},
		{408, false}, {429, false}, {500, false}, {502, false}, {503, false},
	} {
		h := &counted{fn: func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				w.WriteHeader(c.status)
				return
			}
			w.WriteHeader(http.StatusTeapot)
		}}
		mw := wrap(t, idempotency.Config{}, h)
		assert.Equal(t, c.status, send(mw, http.MethodPost, "/", "k", "").Code)
		second := send(mw, http.MethodPost, "/", "k", "")
		if c.stored {
			assert.Equal(t, c.status, second.Code, "%d is replayed", c.status)
			assert.Equal(t, 1, h.count(), "%d is replayed", c.status)
		} else {
			assert.Equal(t, http.StatusTeapot, second.Code, "%d releases the key", c.status)
			assert.Equal(t, 2, h.count(), "%d releases the key", c.status)
		}
	}

	h := &counted{fn: func(w http.ResponseWriter, r *http.Request, n int) { w.WriteHeader(http.StatusInternalServerError) }}
	mw := wrap(t, idempotency.Config{Replayable: func(int) bool { return true }}, h)
	send(mw, http.MethodPost, "/", "k", "")
	assert.Equal(t, http.StatusInternalServerError, send(mw, http.MethodPost, "/", "k", "").Code)
	assert.Equal(t, 1, h.count(), "Replayable decides")
}

func TestMiddlewarePanicReleasesKey(t *testing.T) {
	for _, v := range []any{"boom", http.ErrAbortHandler} {
		h := &counted{fn: func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				w.WriteHeader(http.StatusCreated)
				panic(v)
			}
			w.WriteHeader(http.StatusAccepted)
		}}
		mw := wrap(t, idempotency.Config{}, h)
		assert.PanicsWithValue(t, v, func() { send(mw, http.MethodPost, "/", "k", "") }, "the panic goes on")
		assert.Equal(t, http.StatusAccepted, send(mw, http.MethodPost, "/", "k", "").Code, "a retry runs the handler again")
		assert.Equal(t, http.StatusAccepted, send(mw, http.MethodPost, "/", "k", "").Code)
		assert.Equal(t, 2, h.count())
	}
}

func TestMiddlewareResponseTooLarge(t *testing.T) {
	log, logger := newLog()
	h := &counted{fn: func(w http.ResponseWriter, r *http.Request, n int) {
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "0123456789")
		io.WriteString(w, "abcdefghij")
	}}
	mw := wrap(t, idempotency.Config{MaxResponseBytes: 15, Logger: logger}, h)
	first := send(mw, http.MethodPost, "/export", "k", "")
	assert.Equal(t, http.StatusCreated, first.Code)
	assert.Equal(t, "0123456789abcdefghij", first.Body.String(), "the client gets the whole response")
	for range 2 {
		again := send(mw, http.MethodPost, "/export", "k", "")
		assert.Equal(t, http.StatusGone, again.Code)
		assert.Equal(t, "idempotency: the request with this idempotency key was already processed, but its response was too large to store and cannot be replayed (it answered 201)\n", again.Body.String())
		assert.Equal(t, "true", again.Header().Get(idempotency.ReplayedHeader))
	}
	assert.Equal(t, 1, h.count(), "the handler never runs twice")
	assert.Contains(t, log.String(), "response too large to store")

	// At the limit, it is stored.
	exact := wrap(t, idempotency.Config{MaxResponseBytes: 20}, h)
	send(exact, http.MethodPost, "/export", "k", "")
	assert.Equal(t, "0123456789abcdefghij", send(exact, http.MethodPost, "/export", "k", "").Body.String())
}

// unknownLength hides a body's length, as a chunked request has none.
type unknownLength struct{ io.Reader }

func TestMiddlewareRequestBody(t *testing.T) {
	h := created()
	mw := wrap(t, idempotency.Config{MaxRequestBytes: 10}, h)

	w := send(mw, http.MethodPost, "/", "k", "0123456789")
	assert.Equal(t, http.StatusCreated, w.Code)
	assert.Contains(t, w.Body.String(), `"got":"0123456789"`, "the handler reads the whole body")

	w = send(mw, http.MethodPost, "/", "k2", "0123456789a")
	assert.Equal(t, http.StatusRequestEntityTooLarge, w.Code)
	assert.Equal(t, "idempotency: request body too large for an idempotent request: the body is 11 bytes; at most 10 are accepted\n", w.Body.String())

	r := httptest.NewRequest(http.MethodPost, "/", unknownLength{strings.NewReader("0123456789a")})
	r.Header.Set("Idempotency-Key", "k3")
	rec := httptest.NewRecorder()
	mw.ServeHTTP(rec, r)
	assert.Equal(t, http.StatusRequestEntityTooLarge, rec.Code)
	assert.Equal(t, "idempotency: request body too large for an idempotent request: at most 10 bytes are accepted\n", rec.Body.String())
	assert.Equal(t, 1, h.count())

	// A body that fails to arrive: the handler does not run, and the key is
	// not used up.
	r = httptest.NewRequest(http.MethodPost, "/", io.MultiReader(strings.NewReader("01"), errReader{}))
	r.Header.Set("Idempotency-Key", "k4")
	rec = httptest.NewRecorder()
	mw.ServeHTTP(rec, r)
	assert.Equal(t, http.StatusBadRequest, rec.Code)
	assert.Equal(t, "idempotency: reading the request body failed: connection reset\n", rec.Body.String())
	assert.Equal(t, http.StatusCreated, send(mw, http.MethodPost, "/", "k4", "01").Code)
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

func TestMiddlewareNoWrite(t *testing.T) {
	h := &counted{fn: func(w http.ResponseWriter, r *http.Request, n int) { w.Header().Set("X-N", fmt.Sprint(n)) }}
	mw := wrap(t, idempotency.Config{}, h)
	assert.Equal(t, http.StatusOK, send(mw, http.MethodPost, "/", "k", "").Code)
	again := send(mw, http.MethodPost, "/", "k", "")
	assert.Equal(t, http.StatusOK, again.Code)
	assert.Equal(t, "1", again.Header().Get("X-N"))
	assert.Empty(t, again.Body.String())
}

func TestMiddlewareInformationalThenFinal(t *testing.T) {
	h := &counted{fn: func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Link", "</style.css>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Set("X-N", fmt.Sprint(n))
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "made")
	}}
	mw := wrap(t, idempotency.Config{}, h)
	send(mw, http.MethodPost, "/", "k", "")
	again := send(mw, http.MethodPost, "/", "k", "")
	assert.Equal(t, http.StatusCreated, again.Code)
	assert.Equal(t, "made", again.Body.String())
	assert.Equal(t, "1", again.Header().Get("X-N"))
}

func TestMiddlewareFlushAndHijack(t *testing.T) {
	var hijackErr error
	h := &counted{fn: func(w http.ResponseWriter, r *http.Request, n int) {
		rc := http.NewResponseController(w)
		_, _, hijackErr = rc.Hijack()
		assert.ErrorIs(t, rc.SetWriteDeadline(time.Time{}), http.ErrNotSupported, "reaches the recorder through Unwrap")
		io.WriteString(w, "part 1;")
		require.NoError(t, rc.Flush())
		w.(http.Flusher).Flush()
		io.WriteString(w, "part 2")
	}}
	mw := wrap(t, idempotency.Config{}, h)
	w := send(mw, http.MethodPost, "/", "k", "")
	assert.True(t, w.Flushed)
	assert.ErrorContains(t, hijackErr, "cannot hijack")
	assert.Equal(t, "part 1;part 2", send(mw, http.MethodPost, "/", "k", "").Body.String())
}

func TestMiddlewareTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := created()
		mw := wrap(t, idempotency.Config{TTL: time.Hour}, h)
		send(mw, http.MethodPost, "/", "k", "")
		time.Sleep(time.Hour - time.Nanosecond)
		assert.Equal(t, "1", send(mw, http.MethodPost, "/", "k", "").Header().Get("X-Execution"))
		time.Sleep(time.Nanosecond)
		assert.Equal(t, "2", send(mw, http.MethodPost, "/", "k", "").Header().Get("X-Execution"), "after the TTL the key is new")
	})
}

// blocking is a handler that holds each execution until released.
type blocking struct {
	counted
	entered chan int
	release chan int // receives the status to answer
}

func newBlocking() *blocking {
	b := &blocking{entered: make(chan int, 10), release: make(chan int)}
	b.fn = func(w http.ResponseWriter, r *http.Request, n int) {
		b.entered <- n
		status := <-b.release
		w.Header().Set("X-Execution", fmt.Sprint(n))
		w.WriteHeader(status)
		fmt.Fprintf(w, "execution %d", n)
	}
	return b
}

func TestMiddlewareDuplicateInProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newBlocking()
		mw := wrap(t, idempotency.Config{}, h)
		go send(mw, http.MethodPost, "/", "k", "")
		<-h.entered
		w := send(mw, http.MethodPost, "/", "k", "")
		assert.Equal(t, http.StatusConflict, w.Code)
		assert.Equal(t, "1", w.Header().Get("Retry-After"))
		assert.Equal(t, "idempotency: a request with this idempotency key is still being processed; retry later with the same key\n", w.Body.String())
		// A different payload is refused as such even while in progress.
		assert.Equal(t, http.StatusUnprocessableEntity, send(mw, http.MethodPost, "/", "k", "other").Code)
		h.release <- http.StatusCreated
		synctest.Wait()
		assert.Equal(t, "execution 1", send(mw, http.MethodPost, "/", "k", "").Body.String())
		assert.Equal(t, 1, h.count())
	})
}

func TestMiddlewareWaitsForFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newBlocking()
		mw := wrap(t, idempotency.Config{WaitTimeout: 10 * time.Second}, h)
		go send(mw, http.MethodPost, "/", "k", "")
		<-h.entered
		start := time.Now()
		got := make(chan *httptest.ResponseRecorder)
		for range 3 {
			go func() { got <- send(mw, http.MethodPost, "/", "k", "") }()
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		h.release <- http.StatusCreated
		for range 3 {
			w := <-got
			assert.Equal(t, http.StatusCreated, w.Code)
			assert.Equal(t, "execution 1", w.Body.String())
			assert.Equal(t, "true", w.Header().Get(idempotency.ReplayedHeader))
		}
		assert.Less(t, time.Since(start), 3*time.Second+2*idempotency.DefaultPollInterval)
		assert.Equal(t, 1, h.count())
	})
}

func TestMiddlewareWaitTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newBlocking()
		mw := wrap(t, idempotency.Config{WaitTimeout: 2 * time.Second, PollInterval: 300 * time.Millisecond}, h)
		go send(mw, http.MethodPost, "/", "k", "")
		<-h.entered
		start := time.Now()
		w := send(mw, http.MethodPost, "/", "k", "")
		assert.Equal(t, http.StatusConflict, w.Code)
		assert.Equal(t, 2*time.Second, time.Since(start), "waits WaitTimeout exactly, not a poll more")
		h.release <- http.StatusCreated
	})
}

func TestMiddlewareWaiterRunsAfterRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newBlocking()
		mw := wrap(t, idempotency.Config{WaitTimeout: 10 * time.Second}, h)
		first := make(chan *httptest.ResponseRecorder)
		go func() { first <- send(mw, http.MethodPost, "/", "k", "") }()
		<-h.entered
		second := make(chan *httptest.ResponseRecorder)
		go func() { second <- send(mw, http.MethodPost, "/", "k", "") }()
		time.Sleep(time.Second)
		h.release <- http.StatusServiceUnavailable // the first fails and frees the key
		assert.Equal(t, http.StatusServiceUnavailable, (<-first).Code)
		assert.Equal(t, 2, <-h.entered, "the waiting duplicate runs the handler")
		h.release <- http.StatusCreated
		w := <-second
		assert.Equal(t, http.StatusCreated, w.Code)
		assert.Empty(t, w.Header().Get(idempotency.ReplayedHeader))
	})
}

func TestMiddlewareWaitEndsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newBlocking()
		mw := wrap(t, idempotency.Config{WaitTimeout: time.Hour}, h)
		go send(mw, http.MethodPost, "/", "k", "")
		<-h.entered
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		w := sendCtx(ctx, mw, http.MethodPost, "/", "k", "")
		assert.Equal(t, http.StatusConflict, w.Code)
		assert.Equal(t, 5*time.Second, time.Since(start))
		h.release <- http.StatusCreated
	})
}

func TestMiddlewareRenewsLease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newBlocking()
		mw := wrap(t, idempotency.Config{Lease: 3 * time.Second}, h)
		go send(mw, http.MethodPost, "/", "k", "")
		<-h.entered
		for range 10 {
			time.Sleep(2 * time.Second)
			assert.Equal(t, http.StatusConflict, send(mw, http.MethodPost, "/", "k", "").Code, "the claim outlives its lease while the handler runs")
		}
		h.release <- http.StatusCreated
		synctest.Wait()
		assert.Equal(t, "execution 1", send(mw, http.MethodPost, "/", "k", "").Body.String())
		assert.Equal(t, 1, h.count())
	})
}

// faultyStore wraps a store and fails the operations selected.
type faultyStore struct {
	idempotency.Store
	failClaim, failGet, failReplace, failRelease atomic.Bool
}

var errDown = errors.New("dial tcp 127.0.0.1:6379: connect: connection refused")

func (s *faultyStore) Claim(ctx context.Context, id idempotency.RecordID, v []byte, ttl time.Duration) ([]byte, bool, error) {
	if s.failClaim.Load() {
		return nil, false, errDown
	}
	return s.Store.Claim(ctx, id, v, ttl)
}

func (s *faultyStore) Get(ctx context.Context, id idempotency.RecordID) ([]byte, bool, error) {
	if s.failGet.Load() {
		return nil, false, errDown
	}
	return s.Store.Get(ctx, id)
}

func (s *faultyStore) Replace(ctx context.Context, id idempotency.RecordID, old, v []byte, ttl time.Duration) (bool, error) {
	if s.failReplace.Load() {
		return false, errDown
	}
	return s.Store.Replace(ctx, id, old, v, ttl)
}

func (s *faultyStore) Release(ctx context.Context, id idempotency.RecordID, old []byte) (bool, error) {
	if s.failRelease.Load() {
		return false, errDown
	}
	return s.Store.Release(ctx, id, old)
}

func TestMiddlewareLeaseEndsWhenInstanceDies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// An instance that can no longer reach the store (or died) cannot
		// renew or complete its claim: the key is free one lease after a
		// duplicate (on another instance) first found the claim.
		mem, _ := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
		cutOff := &faultyStore{Store: mem}
		_, logger := newLog()
		h := newBlocking()
		owner := wrap(t, idempotency.Config{Store: cutOff, Lease: 30 * time.Second, Logger: logger}, h)
		other := wrap(t, idempotency.Config{Store: mem, Lease: 30 * time.Second, Logger: logger}, h)
		go send(owner, http.MethodPost, "/", "k", "")
		<-h.entered
		cutOff.failReplace.Store(true)
		cutOff.failRelease.Store(true)
		time.Sleep(time.Hour) // no duplicate yet: the claim stays
		assert.Equal(t, http.StatusConflict, send(other, http.MethodPost, "/", "k", "").Code)
		time.Sleep(29 * time.Second)
		assert.Equal(t, http.StatusConflict, send(other, http.MethodPost, "/", "k", "").Code)
		time.Sleep(time.Second)
		go send(other, http.MethodPost, "/", "k", "")
		assert.Equal(t, 2, <-h.entered)
		h.release <- http.StatusCreated
		h.release <- http.StatusCreated
	})
}

func TestMiddlewareStoreUnavailable(t *testing.T) {
	mem, _ := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	store := &faultyStore{Store: mem}
	log, logger := newLog()
	h := created()
	mw := wrap(t, idempotency.Config{Store: store, Logger: logger, WaitTimeout: time.Second}, h)

	store.failClaim.Store(true)
	for range 3 {
		w := send(mw, http.MethodPost, "/", "k", "")
		assert.Equal(t, http.StatusServiceUnavailable, w.Code)
		assert.Equal(t, "1", w.Header().Get("Retry-After"))
		assert.Equal(t, "idempotency: idempotency store unavailable; the request was not processed\n", w.Body.String())
	}
	assert.Equal(t, 0, h.count())
	assert.Contains(t, log.String(), "level=ERROR")
	assert.Contains(t, log.String(), "connection refused")
	assert.NotContains(t, send(mw, http.MethodPost, "/", "k", "").Body.String(), "connection refused", "internals stay in the log")

	// Requests without a key do not need the store.
	assert.Equal(t, http.StatusCreated, send(mw, http.MethodPost, "/", "", "").Code)
}

func TestMiddlewareStoreFailsAfterHandler(t *testing.T) {
	mem, _ := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	store := &faultyStore{Store: mem}
	log, logger := newLog()
	h := created()
	mw := wrap(t, idempotency.Config{Store: store, Logger: logger}, h)
	store.failReplace.Store(true)
	w := send(mw, http.MethodPost, "/", "k", "")
	assert.Equal(t, http.StatusCreated, w.Code, "the client still gets its response")
	assert.Contains(t, log.String(), "could not store the response")
	assert.Equal(t, http.StatusConflict, send(mw, http.MethodPost, "/", "k", "").Code, "the claim stands until its lease ends")
	assert.Equal(t, 1, h.count())
}

func TestMiddlewareWaitStoreFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem, _ := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
		store := &faultyStore{Store: mem}
		_, logger := newLog()
		h := newBlocking()
		mw := wrap(t, idempotency.Config{Store: store, Logger: logger, WaitTimeout: time.Minute}, h)
		go send(mw, http.MethodPost, "/", "k", "")
		<-h.entered
		store.failGet.Store(true)
		assert.Equal(t, http.StatusServiceUnavailable, send(mw, http.MethodPost, "/", "k", "").Code)
		h.release <- http.StatusCreated
	})
}

func TestMiddlewareMalformedRecord(t *testing.T) {
	mem, _ := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	log, logger := newLog()
	h := created()
	mw := wrap(t, idempotency.Config{Store: mem, Logger: logger, Scope: func(*http.Request) string { return "t1" }}, h)
	ctx := context.Background()
	id := idempotency.RecordID{Scope: "t1", Key: "k"}

	// Garbage where a record should be: treated as absent, never replayed.
	_, claimed, _ := mem.Claim(ctx, id, []byte("HTTP/1.1 200 OK\r\n\r\nnot ours"), time.Hour)
	require.True(t, claimed)
	w := send(mw, http.MethodPost, "/", "k", "")
	assert.Equal(t, http.StatusCreated, w.Code)
	assert.Equal(t, "1", w.Header().Get("X-Execution"))
	assert.Contains(t, log.String(), "malformed record treated as absent")
	assert.Contains(t, log.String(), "scope=t1 key=k")
	assert.Equal(t, "1", send(mw, http.MethodPost, "/", "k", "").Header().Get("X-Execution"), "the new record is replayed")

	// A stored response damaged in the store: the same.
	good, ok, _ := mem.Get(ctx, id)
	require.True(t, ok)
	bad := bytes.Clone(good)
	bad[len(bad)/2] ^= 1
	ok, _ = mem.Replace(ctx, id, good, bad, time.Hour)
	require.True(t, ok)
	assert.Equal(t, "2", send(mw, http.MethodPost, "/", "k", "").Header().Get("X-Execution"))
	assert.Equal(t, "2", send(mw, http.MethodPost, "/", "k", "").Header().Get("X-Execution"))
	assert.Equal(t, 2, strings.Count(log.String(), "malformed record"))
}

func TestMiddlewareWriteError(t *testing.T) {
	var gotErr error
	mw := wrap(t, idempotency.Config{
		Required: true,
		WriteError: func(w http.ResponseWriter, r *http.Request, status int, err error) {
			gotErr = err
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"status":%d}`, status)
		},
	}, created())
	w := send(mw, http.MethodPost, "/", "", "")
	assert.Equal(t, `{"status":400}`, w.Body.String())
	assert.True(t, errors.Is(gotErr, idempotency.ErrMissingKey))
	w = send(mw, http.MethodPost, "/", "bad key", "")
	assert.True(t, errors.Is(gotErr, idempotency.ErrInvalidKey))
}

func TestNewInvalidConfig(t *testing.T) {
	for _, c := range []struct {
		cfg   idempotency.Config
		field string
		want  string
	}{
		{idempotency.Config{Scope: oneTenant, Header: "Bad Header"}, "Header", "idempotency: invalid Config.Header Bad Header: not a valid header name"},
		{idempotency.Config{Scope: oneTenant, Header: "X:Y"}, "Header", "idempotency: invalid Config.Header X:Y: not a valid header name"},
		{idempotency.Config{Scope: oneTenant, TTL: -1}, "TTL", "idempotency: invalid Config.TTL -1ns: must not be negative"},
		{idempotency.Config{Scope: oneTenant, Lease: -1}, "Lease", "idempotency: invalid Config.Lease -1ns"},
		{idempotency.Config{Scope: oneTenant, WaitTimeout: -1}, "WaitTimeout", "idempotency: invalid Config.WaitTimeout -1ns"},
		{idempotency.Config{Scope: oneTenant, PollInterval: -1}, "PollInterval", "idempotency: invalid Config.PollInterval -1ns"},
		{idempotency.Config{Scope: oneTenant, MaxRequestBytes: -1}, "MaxRequestBytes", "idempotency: invalid Config.MaxRequestBytes -1"},
		{idempotency.Config{Scope: oneTenant, MaxResponseBytes: -1}, "MaxResponseBytes", "idempotency: invalid Config.MaxResponseBytes -1"},
		{idempotency.Config{Scope: oneTenant, StoreTimeout: -1}, "StoreTimeout", "idempotency: invalid Config.StoreTimeout -1ns"},
	} {
		_, err := idempotency.New(c.cfg)
		var ce *idempotency.ConfigError
		if assert.True(t, errors.As(err, &ce), "%v", err) {
			assert.Equal(t, c.field, ce.Field)
		}
		assert.ErrorContains(t, err, c.want)
	}
	_, err := idempotency.New(idempotency.Config{Scope: oneTenant, Header: "X-Request-Key"})
	assert.NoError(t, err)
}

func TestMiddlewareOuterMaxBytesReader(t *testing.T) {
	h := created()
	mw := wrap(t, idempotency.Config{}, h)
	outer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 4)
		mw.ServeHTTP(w, r)
	})
	r := httptest.NewRequest(http.MethodPost, "/", unknownLength{strings.NewReader("0123456789")})
	r.Header.Set("Idempotency-Key", "k")
	w := httptest.NewRecorder()
	outer.ServeHTTP(w, r)
	assert.Equal(t, http.StatusRequestEntityTooLarge, w.Code)
	assert.Equal(t, "idempotency: request body too large for an idempotent request: at most 4 bytes are accepted\n", w.Body.String())
	assert.Equal(t, 0, h.count())
}

func TestMiddlewareNilBody(t *testing.T) {
	h := created()
	mw := wrap(t, idempotency.Config{}, h)
	r := httptest.NewRequest(http.MethodPost, "/", nil)
	r.Body = nil // as a hand-made request may have
	r.Header.Set("Idempotency-Key", "k")
	w := httptest.NewRecorder()
	mw.ServeHTTP(w, r)
	assert.Equal(t, http.StatusCreated, w.Code)
}

func TestMiddlewareClientGoneQuietly(t *testing.T) {
	mem, _ := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	store := &faultyStore{Store: mem}
	store.failClaim.Store(true)
	log, logger := newLog()
	mw := wrap(t, idempotency.Config{Store: store, Logger: logger}, created())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.Equal(t, http.StatusServiceUnavailable, sendCtx(ctx, mw, http.MethodPost, "/", "k", "").Code)
	assert.Empty(t, log.String(), "a client that went away is not a store failure")
}

func TestMiddlewareOuterHeadersNotReplayed(t *testing.T) {
	h := created()
	mw := wrap(t, idempotency.Config{}, h)
	n := 0
	outer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		w.Header().Set("X-Request-Id", fmt.Sprintf("req-%d", n))
		w.Header().Set("Vary", "Origin")
		mw.ServeHTTP(w, r)
	})
	send(outer, http.MethodPost, "/", "k", "")
	again := send(outer, http.MethodPost, "/", "k", "")
	assert.Equal(t, "req-2", again.Header().Get("X-Request-Id"), "each request keeps its own outer headers")
	assert.Equal(t, "Origin", again.Header().Get("Vary"))
	assert.Equal(t, "1", again.Header().Get("X-Execution"), "the handler's headers are replayed")
	assert.Equal(t, "true", again.Header().Get(idempotency.ReplayedHeader))
}
