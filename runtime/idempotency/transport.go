package idempotency

import (
	"net/http"
)

// Transport is an [http.RoundTripper] that puts an idempotency key on
// every POST and PATCH request that does not carry one already, so that a
// server can recognize the attempts of one logical request and carry it
// out once.
//
// The key comes from the request's context ([WithKey], [EnsureKey]). Fix
// it there once per logical request, before the retry loop:
//
//	ctx, _ = idempotency.EnsureKey(ctx)
//	for attempt := range 3 {
//		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, body())
//		resp, err := client.Do(req) // client.Transport is an *idempotency.Transport
//		...
//	}
//
// When the context holds no key, Transport makes a new one for the request
// (unless RequireContextKey is set). That key protects only against
// repeats below the Transport — net/http resends a request that carries an
// Idempotency-Key header when a reused connection dies before the answer —
// but a retry loop above it sends each attempt with a different key, which
// the server cannot deduplicate. Set RequireContextKey to find such loops.
//
// The zero value is usable: it wraps [http.DefaultTransport] and sets the
// "Idempotency-Key" header. A Transport is safe for concurrent use; its
// fields must not change while it is in use. It never modifies the request
// it is given: it sends a copy with the header added.
type Transport struct {
	// Base carries the requests. Nil means http.DefaultTransport.
	Base http.RoundTripper

	// Header is the name of the header that carries the key. Empty means
	// DefaultHeader, "Idempotency-Key".
	Header string

	// Methods are the methods whose requests get a key. Nil means POST and
	// PATCH, the methods that are not idempotent by definition (GET, HEAD,
	// PUT, DELETE and OPTIONS are). Names are compared exactly: use upper
	// case.
	Methods []string

	// RequireContextKey, if set, makes RoundTrip fail with ErrNoKey,
	// without sending anything, for a request that needs a key and finds
	// none in its header or its context, instead of making a key for it.
	RequireContextKey bool
}

var _ http.RoundTripper = (*Transport)(nil)

// RoundTrip sends req through Base, with the key header added if req's
// method needs a key and req has none. A key already in the header is kept
// as it is. If RoundTrip fails before handing req to Base, it closes req's
// body, as the RoundTripper contract requires.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if !t.needsKey(req.Method) {
		return base.RoundTrip(req)
	}
	header := t.Header
	if header == "" {
		header = DefaultHeader
	}
	if len(req.Header.Values(header)) > 0 {
		return base.RoundTrip(req)
	}
	key, ok := KeyFromContext(req.Context())
	if !ok {
		if t.RequireContextKey {
			closeBody(req)
			return nil, ErrNoKey
		}
		key = NewKey()
	}
	r := req.Clone(req.Context())
	if r.Header == nil {
		r.Header = make(http.Header)
	}
	r.Header.Set(header, key)
	return base.RoundTrip(r)
}

func (t *Transport) needsKey(method string) bool {
	if t.Methods == nil {
		return method == http.MethodPost || method == http.MethodPatch
	}
	for _, m := range t.Methods {
		if m == method {
			return true
		}
	}
	return false
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// CloseIdleConnections closes the idle connections of Base, if it has such
// a method, so that [http.Client.CloseIdleConnections] reaches it.
func (t *Transport) CloseIdleConnections() {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if c, ok := base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
