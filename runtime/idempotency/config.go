package idempotency

import (
	"log/slog"
	"net/http"
	"time"
)

// Defaults for the zero fields of a [Config].
const (
	DefaultTTL              = 24 * time.Hour
	DefaultLease            = 30 * time.Second
	DefaultPollInterval     = 50 * time.Millisecond
	DefaultStoreTimeout     = 5 * time.Second
	DefaultMaxRequestBytes  = 1 << 20
	DefaultMaxResponseBytes = 1 << 20
)

// ReplayedHeader is set to "true" on every replayed response, so that
// clients and logs can tell a replay from a first execution.
const ReplayedHeader = "Idempotent-Replayed"

// Config configures the server-side middleware ([New]). Every field but
// Scope has a documented default for its zero value: an in-memory store,
// optional keys in the Idempotency-Key header of POST and PATCH requests,
// records kept for 24 hours.
//
// Scope is required: without it, two clients that happen to pick the same
// key would share one record, and the second would be answered with the
// first one's response (one user's data replayed to another). New refuses
// a Config without Scope unless Unscoped says, explicitly, that every
// request comes from one client.
type Config struct {
	// Store keeps the records. Use one shared by every instance of the
	// service (redisstore) when there is more than one instance: a
	// duplicate routed to another instance is deduplicated only then. Nil
	// means a new MemoryStore with the default bound, private to this
	// middleware.
	Store Store

	// Header is the name of the request header that carries the key. Empty
	// means DefaultHeader, "Idempotency-Key".
	Header string

	// Methods are the methods the middleware handles; requests with other
	// methods go to the handler untouched, key or not. Nil means POST and
	// PATCH. Names are compared exactly: use upper case.
	Methods []string

	// Scope returns the client or tenant a request comes from (an account
	// ID, an API key's ID, an authenticated subject). Keys are unique only
	// within a scope. It runs before the handler, so it can use what outer
	// middleware put in the request's context. Required: nil is a
	// *ConfigError unless Unscoped is set.
	Scope func(r *http.Request) string

	// Unscoped, if set, is the explicit opt-out of Scope: one key space for
	// every request. Set it only where a single trusted client calls the
	// server (an internal queue consumer, say): any two callers that pick
	// the same key get each other's responses. Setting both Scope and
	// Unscoped is a *ConfigError.
	Unscoped bool

	// Required, if set, makes a key mandatory: a request with a handled
	// method and no key header gets 400 Bad Request. The zero value lets
	// such requests through to the handler, unprotected.
	Required bool

	// RequiredFunc, if not nil, decides per request (per route, say)
	// whether a key is mandatory, in place of Required.
	RequiredFunc func(r *http.Request) bool

	// TTL is how long a completed request's response is kept and replayed.
	// A retry that comes later runs the handler again. Zero means
	// DefaultTTL, 24 hours. Negative is invalid.
	TTL time.Duration

	// Lease is how long a claim may go without a sign of life once a
	// duplicate has found it. A claim is stored for TTL (or Lease, if
	// longer); a duplicate that finds it marks it suspected, a mark the
	// store keeps for one Lease. While the handler runs, the middleware
	// checks in every Lease/3, renewing the claim and taking any mark off.
	// So the key stays claimed however long the handler runs and however
	// long the store pauses; if the instance dies, a retry finds the key
	// free one Lease after a duplicate first found it, and then runs the
	// handler. Zero means DefaultLease, 30 seconds. Negative is invalid.
	Lease time.Duration

	// WaitTimeout is how long a duplicate that arrives while the first
	// request with its key is still running waits for that request to
	// finish, after which it gets the stored response (or, if the first
	// failed and released the key, runs the handler itself). Zero means no
	// wait: the duplicate gets 409 Conflict with Retry-After at once, as it
	// does when the wait times out. Waiting stops when the request's
	// context is done. Negative is invalid.
	WaitTimeout time.Duration

	// PollInterval is how often a waiting duplicate asks the store whether
	// the first request has finished. Zero means DefaultPollInterval, 50ms.
	// Negative is invalid.
	PollInterval time.Duration

	// MaxRequestBytes bounds the request body, which the middleware reads
	// in full to fingerprint the request before the handler runs (the
	// handler then reads it from memory). A larger body gets 413 Content
	// Too Large. Zero means DefaultMaxRequestBytes, 1 MiB. Negative is
	// invalid.
	MaxRequestBytes int64

	// MaxResponseBytes bounds the response body that is stored for replay.
	// A larger response still goes to the client in full, but only the
	// fact that the request was processed is stored: later requests with
	// its key get 410 Gone (ErrResponseNotStored), never a second
	// execution. Zero means DefaultMaxResponseBytes, 1 MiB. Negative is
	// invalid.
	MaxResponseBytes int

	// StoreTimeout bounds each call to the store. A call that takes longer
	// counts as the store being unavailable (503 before the handler runs;
	// logged after it ran). Calls made after the handler ran — completing
	// or releasing the claim — are not cancelled when the client goes away.
	// Zero means DefaultStoreTimeout, 5 seconds. Negative is invalid.
	StoreTimeout time.Duration

	// Replayable reports whether a response with the given status is stored
	// and replayed to later requests with the same key. For any other
	// status the claim is released, so that a retry runs the handler again.
	// Nil means every status below 500 except 408 Request Timeout and 429
	// Too Many Requests (which say the request was not carried out).
	Replayable func(status int) bool

	// WriteError writes the middleware's own answers (400, 409, 410, 413,
	// 422, 503), for APIs that answer errors in a format of their own.
	// err wraps one of the package's sentinel errors (ErrMissingKey,
	// ErrInvalidKey, ErrReadBody, ErrInProgress, ErrResponseNotStored,
	// ErrRequestTooLarge, ErrKeyReused, ErrStoreUnavailable); Retry-After
	// is already set where it applies. Nil means a text/plain body holding
	// err's message.
	WriteError func(w http.ResponseWriter, r *http.Request, status int, err error)

	// Logger receives what clients do not see: store failures, malformed
	// records, claims lost to expiry. Nil means slog.Default().
	Logger *slog.Logger
}

func (c *Config) validate() error {
	switch {
	case c.Scope == nil && !c.Unscoped:
		return configError("Scope", nil, "required: a func returning the client or tenant of a request (an account ID, an API key's ID); set Unscoped instead only if every request comes from one client")
	case c.Scope != nil && c.Unscoped:
		return configError("Unscoped", true, "set together with Scope; keep one of them")
	case c.Header != "" && !validHeaderName(c.Header):
		return configError("Header", c.Header, "not a valid header name")
	case c.TTL < 0:
		return configError("TTL", c.TTL, "must not be negative")
	case c.Lease < 0:
		return configError("Lease", c.Lease, "must not be negative")
	case c.WaitTimeout < 0:
		return configError("WaitTimeout", c.WaitTimeout, "must not be negative")
	case c.PollInterval < 0:
		return configError("PollInterval", c.PollInterval, "must not be negative")
	case c.MaxRequestBytes < 0:
		return configError("MaxRequestBytes", c.MaxRequestBytes, "must not be negative")
	case c.MaxResponseBytes < 0:
		return configError("MaxResponseBytes", c.MaxResponseBytes, "must not be negative")
	case c.StoreTimeout < 0:
		return configError("StoreTimeout", c.StoreTimeout, "must not be negative")
	}
	return nil
}

// validHeaderName reports whether s is an HTTP field name (a token).
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c < 0x80 && c > 0x20 && !isSeparator(c):
		default:
			return false
		}
	}
	return true
}

func isSeparator(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '@', ',', ';', ':', '\\', '"', '/', '[', ']', '?', '=', '{', '}', 0x7F:
		return true
	}
	return false
}

func defaultReplayable(status int) bool {
	return status < 500 && status != http.StatusRequestTimeout && status != http.StatusTooManyRequests
}

func defaultWriteError(w http.ResponseWriter, _ *http.Request, status int, err error) {
	http.Error(w, err.Error(), status)
}
