package idempotency

import (
	"context"
	"crypto/rand"
	"fmt"
)

// MaxKeyLen is the longest key, in bytes, that [ValidateKey] and the
// middleware accept.
const MaxKeyLen = 255

// DefaultHeader is the header that carries the key when
// [Transport.Header] or [Config.Header] is empty.
const DefaultHeader = "Idempotency-Key"

// NewKey returns a new random key: 26 characters of the base32 alphabet
// (A–Z, 2–7), carrying 130 bits from crypto/rand. It is safe in URLs,
// headers and Redis keys, and case-insensitive systems keep it apart from
// every other key; the chance that two keys ever collide is negligible
// (below 10⁻¹⁸ after 10¹⁰ keys).
func NewKey() string { return rand.Text() }

// ValidateKey reports whether key is acceptable as an idempotency key: 1 to
// MaxKeyLen bytes of visible ASCII (0x21 to 0x7E; no spaces, no control or
// non-ASCII characters). The error wraps ErrInvalidKey and says what is
// wrong.
func ValidateKey(key string) error {
	switch {
	case key == "":
		return fmt.Errorf("%w: the key is empty", ErrInvalidKey)
	case len(key) > MaxKeyLen:
		return fmt.Errorf("%w: the key is %d bytes long; at most %d are allowed", ErrInvalidKey, len(key), MaxKeyLen)
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x21 || c > 0x7E {
			return fmt.Errorf("%w: byte %d of the key is %#02x; only visible ASCII characters (0x21 to 0x7E) are allowed", ErrInvalidKey, i, c)
		}
	}
	return nil
}

type keyContextKey struct{}

// WithKey returns a copy of ctx that carries key as the idempotency key of
// one logical request. Call it once, before the retry loop, and send every
// attempt with the returned context (or one derived from it): [Transport]
// then puts the same key on each attempt, which is what lets the server
// recognize the attempts as one request.
//
// WithKey does not validate key; see [ValidateKey].
func WithKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, keyContextKey{}, key)
}

// KeyFromContext returns the key that [WithKey] or [EnsureKey] put in ctx,
// if any.
func KeyFromContext(ctx context.Context) (string, bool) {
	k, ok := ctx.Value(keyContextKey{}).(string)
	return k, ok
}

// EnsureKey returns ctx and its key if it carries one, and otherwise a copy
// of ctx carrying a new key from [NewKey]. Call it before the retry loop:
//
//	ctx, key := idempotency.EnsureKey(ctx)
//	err := retry.Do(ctx, policy, func(ctx context.Context) error { ... })
func EnsureKey(ctx context.Context) (context.Context, string) {
	if k, ok := KeyFromContext(ctx); ok {
		return ctx, k
	}
	k := NewKey()
	return WithKey(ctx, k), k
}
