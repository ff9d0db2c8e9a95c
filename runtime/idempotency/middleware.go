package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Middleware is the server side of the protocol: it runs a handler at most
// once per idempotency key (within a scope) and answers later requests with
// the same key with the stored response. See the package documentation for
// the protocol, and [Config] for the settings.
//
// Create one with [New]; the zero value is not usable. A Middleware is safe
// for concurrent use, and one may wrap any number of handlers (they then
// share its key space: a key used on one route and reused on another gets
// 422).
type Middleware struct {
	store        Store
	header       string
	methods      []string
	scope        func(*http.Request) string
	required     bool
	requiredFunc func(*http.Request) bool
	ttl          time.Duration
	lease        time.Duration
	claimTTL     time.Duration // a claim's time to live in the store
	waitTimeout  time.Duration
	pollInterval time.Duration
	maxReq       int64
	maxResp      int
	storeTimeout time.Duration
	replayable   func(int) bool
	writeError   func(http.ResponseWriter, *http.Request, int, error)
	log          *slog.Logger
}

// New returns a Middleware configured by cfg, or a *ConfigError if a field
// is invalid (Scope is required; see Config).
func New(cfg Config) (*Middleware, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	m := &Middleware{
		store:        cfg.Store,
		header:       http.CanonicalHeaderKey(cmp(cfg.Header, DefaultHeader)),
		methods:      cfg.Methods,
		scope:        cfg.Scope,
		required:     cfg.Required,
		requiredFunc: cfg.RequiredFunc,
		ttl:          cmp(cfg.TTL, DefaultTTL),
		lease:        cmp(cfg.Lease, DefaultLease),
		waitTimeout:  cfg.WaitTimeout,
		pollInterval: cmp(cfg.PollInterval, DefaultPollInterval),
		maxReq:       cmp(cfg.MaxRequestBytes, DefaultMaxRequestBytes),
		maxResp:      cmp(cfg.MaxResponseBytes, DefaultMaxResponseBytes),
		storeTimeout: cmp(cfg.StoreTimeout, DefaultStoreTimeout),
		replayable:   cfg.Replayable,
		writeError:   cfg.WriteError,
		log:          cfg.Logger,
	}
	m.claimTTL = max(m.ttl, m.lease)
	if m.store == nil {
		m.store, _ = NewMemoryStore(MemoryConfig{})
	}
	if m.methods == nil {
		m.methods = []string{http.MethodPost, http.MethodPatch}
	}
	if m.replayable == nil {
		m.replayable = defaultReplayable
	}
	if m.writeError == nil {
		m.writeError = defaultWriteError
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	return m, nil
}

// cmp returns v, or def if v is the zero value.
func cmp[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Wrap returns a handler that passes requests with a handled method and a
// key through the protocol before next, and all other requests straight to
// next. Its signature fits router middleware chains: r.Use(mw.Wrap).
func (m *Middleware) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.serve(w, r, next)
	})
}

func (m *Middleware) handles(method string) bool {
	for _, x := range m.methods {
		if x == method {
			return true
		}
	}
	return false
}

func (m *Middleware) fail(w http.ResponseWriter, r *http.Request, status int, err error) {
	if status == http.StatusConflict || status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	m.writeError(w, r, status, err)
}

func (m *Middleware) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if !m.handles(r.Method) {
		next.ServeHTTP(w, r)
		return
	}
	vals := r.Header.Values(m.header)
	switch {
	case len(vals) == 0:
		required := m.required
		if m.requiredFunc != nil {
			required = m.requiredFunc(r)
		}
		if required {
			m.fail(w, r, http.StatusBadRequest, fmt.Errorf("%w: this request needs an %s header; make one key per logical request and send it with every attempt", ErrMissingKey, m.header))
			return
		}
		next.ServeHTTP(w, r)
		return
	case len(vals) > 1:
		m.fail(w, r, http.StatusBadRequest, fmt.Errorf("%w: the %s header appears %d times; send it once", ErrInvalidKey, m.header, len(vals)))
		return
	}
	key := vals[0]
	if err := ValidateKey(key); err != nil {
		m.fail(w, r, http.StatusBadRequest, err)
		return
	}

	// Read the body to fingerprint the request; the handler reads the copy.
	if r.ContentLength > m.maxReq {
		m.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Errorf("%w: the body is %d bytes; at most %d are accepted", ErrRequestTooLarge, r.ContentLength, m.maxReq))
		return
	}
	var body []byte
	var err error
	if r.Body != nil {
		body, err = io.ReadAll(io.LimitReader(r.Body, m.maxReq+1))
	}
	var tooLarge *http.MaxBytesError // an outer http.MaxBytesReader's limit
	if int64(len(body)) > m.maxReq || errors.As(err, &tooLarge) {
		m.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Errorf("%w: at most %d bytes are accepted", ErrRequestTooLarge, min(m.maxReq, maxBytes(tooLarge))))
		return
	}
	if err != nil {
		// The handler has not run; the client can send the request again.
		m.fail(w, r, http.StatusBadRequest, fmt.Errorf("%w: %w", ErrReadBody, err))
		return
	}
	r2 := new(http.Request)
	*r2 = *r
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	r = r2

	var id RecordID
	id.Key = key
	if m.scope != nil {
		id.Scope = m.scope(r)
	}
	fp := requestFingerprint(r, body)
	m.decide(w, r, next, id, fp)
}

func maxBytes(e *http.MaxBytesError) int64 {
	if e == nil {
		return math.MaxInt64
	}
	return e.Limit
}

// requestFingerprint hashes what makes two requests the same request: the
// method, the path and query, and the body. Neither the method nor the
// request URI can hold a NUL byte, so the encoding is unambiguous.
func requestFingerprint(r *http.Request, body []byte) fingerprint {
	h := sha256.New()
	io.WriteString(h, r.Method)
	h.Write([]byte{0})
	io.WriteString(h, r.URL.RequestURI())
	h.Write([]byte{0})
	h.Write(body)
	var fp fingerprint
	h.Sum(fp[:0])
	return fp
}

// maxMalformed bounds how many malformed records in a row the middleware
// clears for one request before it gives up with 503.
const maxMalformed = 3

// decide claims the key and runs the handler, or answers from the record
// that holds the key.
func (m *Middleware) decide(w http.ResponseWriter, r *http.Request, next http.Handler, id RecordID, fp fingerprint) {
	ctx := r.Context()
	claim := (&record{kind: kindClaimed, fp: fp, token: newToken()}).encode()
	var deadline time.Time
	if m.waitTimeout > 0 {
		deadline = time.Now().Add(m.waitTimeout)
	}
	var cur []byte // the record that holds the key; nil: try to claim it
	malformed := 0
	for {
		if cur == nil {
			var claimed bool
			var err error
			cur, claimed, err = m.claim(ctx, id, claim)
			if err != nil {
				m.unavailable(w, r, id, "claiming the key", err)
				return
			}
			// A store that resent a claim whose reply was lost may find the
			// claim itself (or a duplicate's suspicion of it): it is ours.
			if claimed || bytes.Equal(cur, claim) || bytes.Equal(cur, suspicionOf(claim)) {
				m.run(w, r, next, id, fp, claim)
				return
			}
		}
		rec, err := decodeRecord(cur)
		if err != nil {
			malformed++
			m.log.LogAttrs(ctx, slog.LevelWarn, "idempotency: malformed record treated as absent",
				slog.String("scope", id.Scope), slog.String("key", id.Key), slog.Int("bytes", len(cur)))
			if malformed > maxMalformed {
				m.unavailable(w, r, id, "clearing malformed records", errMalformed)
				return
			}
			if _, err := m.release(ctx, id, cur); err != nil {
				m.unavailable(w, r, id, "clearing a malformed record", err)
				return
			}
			cur = nil
			continue
		}
		if rec.fp != fp {
			m.fail(w, r, http.StatusUnprocessableEntity, fmt.Errorf("%w: the key was first used with another method, path, query or body; use a new key for a new request", ErrKeyReused))
			return
		}
		switch rec.kind {
		case kindDone:
			replay(w, rec)
			return
		case kindUnstored:
			w.Header().Set(ReplayedHeader, "true")
			m.fail(w, r, http.StatusGone, fmt.Errorf("%w (it answered %d)", ErrResponseNotStored, rec.status))
			return
		}
		// Claimed by a request that is still running, or whose instance
		// died. Mark the claim suspected: unless its owner, alive, takes
		// the mark off, the key is free one Lease from now.
		if rec.kind == kindClaimed {
			cur = m.suspect(ctx, id, cur)
		}
		if deadline.IsZero() || !time.Now().Before(deadline) {
			m.fail(w, r, http.StatusConflict, fmt.Errorf("%w; retry later with the same key", ErrInProgress))
			return
		}
		latest, err := m.waitChange(ctx, id, cur, deadline)
		switch {
		case ctx.Err() != nil:
			// The client is gone; nobody reads the answer.
			m.fail(w, r, http.StatusConflict, fmt.Errorf("%w; retry later with the same key", ErrInProgress))
			return
		case err != nil:
			m.unavailable(w, r, id, "waiting for the first request", err)
			return
		}
		cur = latest // nil if the key was released: claim it
	}
}

// waitChange polls the store until id holds something other than cur, or
// nothing (then it returns nil), or until the deadline (then it returns
// cur's latest value), or until ctx is done.
func (m *Middleware) waitChange(ctx context.Context, id RecordID, cur []byte, deadline time.Time) ([]byte, error) {
	t := time.NewTimer(min(m.pollInterval, time.Until(deadline)))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
		v, ok, err := m.get(ctx, id)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil
		}
		left := time.Until(deadline)
		if !bytes.Equal(v, cur) || left <= 0 {
			return v, nil
		}
		t.Reset(min(m.pollInterval, left))
	}
}

// unavailable answers 503 for a store failure and logs it.
func (m *Middleware) unavailable(w http.ResponseWriter, r *http.Request, id RecordID, doing string, err error) {
	if r.Context().Err() != nil {
		// The client went away and cancelled the store call; the store
		// may be fine, and nobody reads the answer.
		m.fail(w, r, http.StatusServiceUnavailable, ErrStoreUnavailable)
		return
	}
	m.log.LogAttrs(r.Context(), slog.LevelError, "idempotency: store failed; answered 503 without running the handler",
		slog.String("doing", doing), slog.String("scope", id.Scope), slog.String("key", id.Key), slog.Any("error", err))
	m.fail(w, r, http.StatusServiceUnavailable, ErrStoreUnavailable)
}

// The store calls, each bounded by StoreTimeout.

func (m *Middleware) claim(ctx context.Context, id RecordID, value []byte) ([]byte, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, m.storeTimeout)
	defer cancel()
	return m.store.Claim(ctx, id, value, m.claimTTL)
}

// suspect replaces the claim cur, found by a duplicate, with its suspected
// form, which the store keeps for one Lease only. It returns what id holds
// as far as it knows: the suspicion, or cur if the store did not take it
// (the claim changed meanwhile, or the store failed: the duplicate answers
// as it would have anyway).
func (m *Middleware) suspect(ctx context.Context, id RecordID, cur []byte) []byte {
	s := suspicionOf(cur)
	ok, err := m.replace(ctx, id, cur, s, m.lease)
	if err != nil {
		m.log.LogAttrs(ctx, slog.LevelWarn, "idempotency: could not mark a running claim suspected",
			slog.String("scope", id.Scope), slog.String("key", id.Key), slog.Any("error", err))
	}
	if ok {
		return s
	}
	return cur
}

// swapOwned replaces this request's claim on id, suspected or not, with
// value, and reports whether it did. A duplicate may suspect the claim
// between two tries; only the claim's owner takes a suspicion off, so a
// third try settles it.
func (m *Middleware) swapOwned(ctx context.Context, id RecordID, claim, value []byte, ttl time.Duration) (bool, error) {
	suspected := suspicionOf(claim)
	for _, old := range [...][]byte{claim, suspected, claim} {
		ok, err := m.replace(ctx, id, old, value, ttl)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// releaseOwned deletes this request's claim on id, suspected or not.
func (m *Middleware) releaseOwned(ctx context.Context, id RecordID, claim []byte) (bool, error) {
	ok, err := m.release(ctx, id, claim)
	if err != nil || ok {
		return ok, err
	}
	return m.release(ctx, id, suspicionOf(claim))
}

func (m *Middleware) get(ctx context.Context, id RecordID) ([]byte, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, m.storeTimeout)
	defer cancel()
	return m.store.Get(ctx, id)
}

func (m *Middleware) release(ctx context.Context, id RecordID, old []byte) (bool, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.storeTimeout)
	defer cancel()
	return m.store.Release(ctx, id, old)
}

func (m *Middleware) replace(ctx context.Context, id RecordID, old, value []byte, ttl time.Duration) (bool, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.storeTimeout)
	defer cancel()
	return m.store.Replace(ctx, id, old, value, ttl)
}

// replay writes a stored response.
func replay(w http.ResponseWriter, rec *record) {
	h := w.Header()
	for name, vals := range rec.header {
		h[name] = vals
	}
	h.Set(ReplayedHeader, "true")
	w.WriteHeader(rec.status)
	w.Write(rec.body)
}

// run runs the handler under the claim, then stores its response or
// releases the claim.
func (m *Middleware) run(w http.ResponseWriter, r *http.Request, next http.Handler, id RecordID, fp fingerprint, claim []byte) {
	ctx := r.Context()
	l := m.startLease(ctx, id, claim)
	// Headers already set by outer middleware (a request ID, CORS) belong
	// to each request; only what the handler sets is stored.
	outer := w.Header().Clone()
	rec := &recorder{w: w, limit: m.maxResp}
	finished := false
	defer func() {
		if finished {
			return
		}
		// The handler panicked (or called runtime.Goexit): free the key so
		// that a retry can run, and let the panic go on.
		l.stop()
		if _, err := m.releaseOwned(ctx, id, claim); err != nil {
			m.log.LogAttrs(ctx, slog.LevelError, "idempotency: could not release the key after the handler panicked; it stays claimed until its lease ends",
				slog.String("scope", id.Scope), slog.String("key", id.Key), slog.Any("error", err))
		}
	}()
	next.ServeHTTP(rec, r)
	finished = true
	l.stop()

	status, header := rec.result()
	for name, vals := range header {
		if o, ok := outer[name]; ok && slices.Equal(o, vals) {
			delete(header, name)
		}
	}
	if !m.replayable(status) {
		if _, err := m.releaseOwned(ctx, id, claim); err != nil {
			m.log.LogAttrs(ctx, slog.LevelError, "idempotency: could not release the key; it stays claimed until its lease ends",
				slog.Int("status", status), slog.String("scope", id.Scope), slog.String("key", id.Key), slog.Any("error", err))
		}
		return
	}
	done := &record{fp: fp, token: newToken(), status: status}
	if rec.tooLarge {
		done.kind = kindUnstored
		m.log.LogAttrs(ctx, slog.LevelWarn, "idempotency: response too large to store; later requests with its key get 410",
			slog.Int("limit", m.maxResp), slog.String("scope", id.Scope), slog.String("key", id.Key))
	} else {
		done.kind, done.header, done.body = kindDone, header, rec.body.Bytes()
	}
	ok, err := m.swapOwned(ctx, id, claim, done.encode(), m.ttl)
	switch {
	case err != nil:
		m.log.LogAttrs(ctx, slog.LevelError, "idempotency: could not store the response; the key stays claimed until its lease ends, then a retry runs the handler again",
			slog.String("scope", id.Scope), slog.String("key", id.Key), slog.Any("error", err))
	case !ok:
		m.log.LogAttrs(ctx, slog.LevelError, "idempotency: the claim on the key was lost before the handler finished (lease expired or record evicted); the response was not stored",
			slog.String("scope", id.Scope), slog.String("key", id.Key))
	}
}

// lease is the heartbeat of a claim while the handler runs: every Lease/3
// it renews the claim and takes off a duplicate's suspicion, so that the
// key stays claimed however long the handler runs, and however long the
// store was paused, as long as this instance can reach the store once per
// Lease after a duplicate came.
type lease struct {
	m     *Middleware
	ctx   context.Context
	id    RecordID
	claim []byte

	running sync.Mutex // held while a renewal runs
	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
}

func (m *Middleware) startLease(ctx context.Context, id RecordID, claim []byte) *lease {
	l := &lease{m: m, ctx: ctx, id: id, claim: claim}
	l.mu.Lock()
	l.timer = time.AfterFunc(m.lease/3, l.renew)
	l.mu.Unlock()
	return l
}

func (l *lease) renew() {
	l.running.Lock()
	defer l.running.Unlock()
	l.mu.Lock()
	stopped := l.stopped
	l.mu.Unlock()
	if stopped {
		return
	}
	ok, err := l.m.swapOwned(l.ctx, l.id, l.claim, l.claim, l.m.claimTTL)
	switch {
	case err != nil:
		l.m.log.LogAttrs(l.ctx, slog.LevelWarn, "idempotency: could not renew the claim on the key",
			slog.String("scope", l.id.Scope), slog.String("key", l.id.Key), slog.Any("error", err))
	case !ok:
		l.m.log.LogAttrs(l.ctx, slog.LevelError, "idempotency: the claim on the key was lost while the handler ran (a duplicate's suspicion expired, or the store lost it); a duplicate may run it again",
			slog.String("scope", l.id.Scope), slog.String("key", l.id.Key))
		return
	}
	l.mu.Lock()
	if !l.stopped {
		l.timer.Reset(l.m.lease / 3)
	}
	l.mu.Unlock()
}

// stop ends the heartbeat and waits for a renewal in flight, so that
// nothing turns the claim back after the caller completes or releases it.
func (l *lease) stop() {
	l.mu.Lock()
	l.stopped = true
	l.timer.Stop()
	l.mu.Unlock()
	l.running.Lock()
	l.running.Unlock()
}
