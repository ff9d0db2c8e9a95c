package idempotency

import (
	"errors"
	"github.com/resilint/resilint/runtime/internal/config"
)

// Errors. All but the last two say why the middleware answered a request
// itself instead of running the handler (or replaying its response): the
// error passed to [Config.WriteError] wraps one of them, and its message is
// the body of the default answer.
var (
	// ErrMissingKey: the request has no key header and the route requires
	// one (400 Bad Request).
	ErrMissingKey = errors.New("idempotency: missing idempotency key")

	// ErrInvalidKey: the key is empty, longer than MaxKeyLen bytes, holds a
	// character outside visible ASCII, or the header appears more than once
	// (400 Bad Request). [ValidateKey] returns it too.
	ErrInvalidKey = errors.New("idempotency: invalid idempotency key")

	// ErrKeyReused: the key was first used for a different request (another
	// method, path, query or body), so it cannot stand for this one (422
	// Unprocessable Content).
	ErrKeyReused = errors.New("idempotency: idempotency key reused for a different request")

	// ErrInProgress: the first request with this key is still being
	// processed (409 Conflict, with Retry-After).
	ErrInProgress = errors.New("idempotency: a request with this idempotency key is still being processed")

	// ErrResponseNotStored: the first request with this key was processed,
	// but its response was larger than Config.MaxResponseBytes and was not
	// stored, so it cannot be replayed; the request is not processed again
	// (410 Gone).
	ErrResponseNotStored = errors.New("idempotency: the request with this idempotency key was already processed, but its response was too large to store and cannot be replayed")

	// ErrRequestTooLarge: the request body is larger than
	// Config.MaxRequestBytes, so it cannot be fingerprinted (413 Content Too
	// Large).
	ErrRequestTooLarge = errors.New("idempotency: request body too large for an idempotent request")

	// ErrReadBody: the request body could not be read in full (the client
	// went away, say); the handler has not run (400 Bad Request).
	ErrReadBody = errors.New("idempotency: reading the request body failed")

	// ErrStoreUnavailable: the store that keeps idempotency records did not
	// answer; the request was not processed (503 Service Unavailable, with
	// Retry-After).
	ErrStoreUnavailable = errors.New("idempotency: idempotency store unavailable; the request was not processed")

	// ErrNoKey is returned by [Transport.RoundTrip] when
	// [Transport.RequireContextKey] is set and a request that needs a key
	// has none, neither in its header nor in its context.
	ErrNoKey = errors.New("idempotency: no idempotency key in the request's context")

	// ErrStoreFull is returned by [MemoryStore.Claim] when the store holds
	// MaxEntries records and none of them may go: every one is a claim
	// whose handler may still be running. The middleware answers 503 with
	// Retry-After, and the handler does not run.
	ErrStoreFull = errors.New("idempotency: memory store full of requests in progress")
)

// ConfigError reports a configuration field with an invalid value: New and NewMemoryStore
// return it for an invalid configuration (use errors.As). Every runtime
// package defines its ConfigError alike.
type ConfigError struct {
	// Field names the field: its name for a field of Config, qualified by
	// its struct otherwise, "MemoryConfig.MaxEntries".
	Field string
	// Value is the offending value, nil where printing it would not help.
	Value any
	// Reason says what a valid value is.
	Reason string
	// Err, if not nil, is the underlying error (a part's own validation).
	Err error
}

// Error reads like "idempotency: invalid Config.Field value: reason".
func (e *ConfigError) Error() string {
	return config.Text("idempotency", e.Field, e.Value, e.Reason, e.Err)
}

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }

func configError(field string, value any, reason string) error {
	return &ConfigError{Field: field, Value: value, Reason: reason}
}
